import { useCallback, useEffect, useState } from 'react'
import { supabase } from '../../backend/client.ts'
import { backendConfig } from '../../backend/config.ts'
import { runHealthChecks, type HealthResult } from './health-checks.ts'

/** The backend in use and its services' live health: checked on mount and on `checkAgain()`. */
export function useHealthChecks() {
  const { url, anonKey } = backendConfig()
  const [results, setResults] = useState<HealthResult[] | null>(null)
  const check = useCallback(() => runHealthChecks(supabase(), url, anonKey), [url, anonKey])
  useEffect(() => {
    let live = true
    void check().then((r) => live && setResults(r))
    return () => {
      live = false
    }
  }, [check])
  const checkAgain = () => {
    setResults(null)
    void check().then(setResults)
  }
  return { url, results, checkAgain }
}
