import { useEffect, useState } from 'react'
import { fetchAiSettings, saveAiSettings, testAiConnection, type AiCategory, type AiSettings } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { errorMessage } from '../../lib/error-message.ts'

export const ON_DEVICE = 'On-device (built in)'
export const CUSTOM_ENDPOINT = 'Custom Endpoint'

/**
 * One AI category's settings: the saved row, the form's model/base URL/key, and Save / Test
 * connection against the server. The key is write-only, so it is cleared once saved.
 */
export function useAiSettings(category: AiCategory) {
  const [saved, setSaved] = useState<AiSettings | null>(null)
  const [model, setModel] = useState('')
  const [baseUrl, setBaseUrl] = useState('')
  const [apiKey, setApiKey] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState<'save' | 'test' | null>(null)
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null)

  useEffect(() => {
    let live = true
    fetchAiSettings(supabase())
      .then((rows) => {
        const row = rows.find((r) => r.category === category)
        if (!live || !row) return
        setSaved(row)
        setModel(row.model)
        setBaseUrl(row.base_url ?? '')
      })
      .catch((e: unknown) => live && setError(errorMessage(e)))
    return () => {
      live = false
    }
  }, [category])

  const custom = model === CUSTOM_ENDPOINT
  const onDevice = model === ON_DEVICE

  /** Saves the form (or, with removeKey, drops the saved key); true when the server took it. */
  const save = async (removeKey = false): Promise<boolean> => {
    if (custom && !/^https?:\/\/\S+$/.test(baseUrl.trim())) {
      setError('A Custom Endpoint needs a base URL starting with http:// or https://.')
      return false
    }
    setBusy('save')
    setError(null)
    try {
      const row = await saveAiSettings(supabase(), {
        category,
        provider: model,
        model,
        baseUrl: custom ? baseUrl : '',
        apiKey: removeKey || onDevice ? '' : apiKey || undefined,
      })
      setSaved(row)
      setApiKey('')
      return true
    } catch (err) {
      setError(errorMessage(err))
      return false
    } finally {
      setBusy(null)
    }
  }

  const test = async () => {
    setBusy('test')
    setResult(null)
    try {
      setResult(await testAiConnection(supabase(), category))
    } catch (err) {
      setResult({ ok: false, message: errorMessage(err) })
    } finally {
      setBusy(null)
    }
  }

  return { saved, model, setModel, baseUrl, setBaseUrl, apiKey, setApiKey, custom, onDevice, error, busy, result, save, test }
}
