import { useEffect, useState, type FormEvent } from 'react'
import { fetchAiSettings, saveAiSettings, testAiConnection, type AiCategory, type AiSettings } from '../../backend/admin.ts'
import { supabase } from '../../backend/client.ts'
import { notify } from '../../lib/notify.ts'
import { ErrorLine, Field, Panel, buttonClass, inputClass, quietButtonClass } from './admin-ui.tsx'

export const ON_DEVICE = 'On-device (built in)'

/** Model options per category (the reference's, plus the built-in generator for Text and Music). */
export const AI_CATEGORIES: Record<AiCategory, { label: string; models: string[] }> = {
  image: { label: 'Image AI', models: ['Stable Diffusion XL', 'Midjourney', 'DALL-E 3', 'Custom Endpoint'] },
  text: { label: 'Text AI', models: [ON_DEVICE, 'GPT-4', 'GPT-3.5 Turbo', 'Claude 3', 'Custom Endpoint'] },
  music: { label: 'Music AI', models: [ON_DEVICE, 'Suno v3', 'MusicGen', 'SoundStorm', 'Custom Endpoint'] },
  inference: { label: 'Inference AI', models: ['OpenAI API', 'Hugging Face', 'Custom Endpoint'] },
}

export function AiSettingsTab({ category }: { category: AiCategory }) {
  const meta = AI_CATEGORIES[category]
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
      .catch((e: unknown) => live && setError((e as Error).message))
    return () => {
      live = false
    }
  }, [category])

  const custom = model === 'Custom Endpoint'
  const onDevice = model === ON_DEVICE

  const save = async (e: FormEvent, removeKey = false) => {
    e.preventDefault()
    if (custom && !/^https?:\/\/\S+$/.test(baseUrl.trim())) return setError('A Custom Endpoint needs a base URL starting with http:// or https://.')
    setBusy('save')
    setError(null)
    try {
      const row = await saveAiSettings(supabase(), { category, provider: model, model, baseUrl: custom ? baseUrl : '', apiKey: removeKey || onDevice ? '' : apiKey || undefined })
      setSaved(row)
      setApiKey('')
      notify.success(`${meta.label} settings saved`)
    } catch (err) {
      setError((err as Error).message)
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
      setResult({ ok: false, message: (err as Error).message })
    } finally {
      setBusy(null)
    }
  }

  return (
    <Panel title={meta.label} description="The key is kept on the server: it is never shown again, only its last four characters.">
      <form onSubmit={(e) => void save(e)} className="space-y-3" aria-label={`${meta.label} settings`}>
        <Field label="Model">
          {(p) => (
            <select {...p} className={inputClass} value={model} onChange={(e) => setModel(e.target.value)} disabled={!saved}>
              {meta.models.map((m) => <option key={m} value={m}>{m}</option>)}
            </select>
          )}
        </Field>
        {custom && (
          <Field label="Base URL" hint="An OpenAI-compatible API, e.g. https://models.example.com/v1">
            {(p) => <input {...p} className={inputClass} value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://…/v1" inputMode="url" />}
          </Field>
        )}
        {!onDevice && (
          <Field label="API key" hint={saved?.api_key_mask ? `Saved key: ${saved.api_key_mask}. Leave empty to keep it.` : 'No key saved yet.'}>
            {(p) => <input {...p} type="password" autoComplete="off" className={inputClass} value={apiKey} onChange={(e) => setApiKey(e.target.value)} placeholder={saved?.api_key_mask ?? 'sk-…'} />}
          </Field>
        )}
        <ErrorLine message={error} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass} disabled={!saved || busy !== null}>{busy === 'save' ? 'Saving…' : 'Save'}</button>
          {!onDevice && (
            <button type="button" className={quietButtonClass} onClick={() => void test()} disabled={!saved || busy !== null}>
              {busy === 'test' ? 'Testing…' : 'Test connection'}
            </button>
          )}
          {saved?.api_key_mask && !onDevice && (
            <button type="button" className={quietButtonClass} onClick={(e) => void save(e, true)} disabled={busy !== null}>Remove saved key</button>
          )}
        </div>
        {result && (
          <p role="status" data-testid="connection-result" className={`rounded-md border px-3 py-2 text-sm ${result.ok ? 'border-emerald-500/60 text-emerald-300' : 'border-red-500/60 text-red-400'}`}>
            {result.ok ? 'Connection OK — ' : 'Connection failed — '}{result.message}
          </p>
        )}
      </form>
    </Panel>
  )
}
