import { useEffect, useState } from 'react'
import { fetchEconomy, type EconomyReport } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { errorMessage } from '../../lib/error-message.ts'

/** The Economy view's report for the last `days` UTC days, read again when `days` changes or on reload(). */
export function useEconomy(days: number) {
  const [report, setReport] = useState<EconomyReport | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let live = true
    fetchEconomy(supabase(), days).then(
      (r) => {
        if (!live) return
        setReport(r)
        setError(null)
      },
      (e: unknown) => live && setError(errorMessage(e)),
    )
    return () => {
      live = false
    }
  }, [days, version])
  return { report, error, reload: () => setVersion((v) => v + 1) }
}
