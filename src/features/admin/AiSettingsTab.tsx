import type { FormEvent } from 'react'
import type { AiCategory } from '../../backend/admin.ts'
import { notify } from '../../lib/notify.ts'
import { CUSTOM_ENDPOINT, ON_DEVICE, useAiSettings } from './useAiSettings.ts'
import { ErrorLine, Field, Panel, buttonClass, inputClass, quietButtonClass } from './admin-ui.tsx'

/** Model options per category (the reference's, plus the built-in generator for Text and Music). */
export const AI_CATEGORIES: Record<AiCategory, { label: string; models: string[]; purpose: string }> = {
  image: {
    label: 'Image AI',
    models: ['Stable Diffusion XL', 'Midjourney', 'DALL-E 3', CUSTOM_ENDPOINT],
    purpose: 'Not called as shipped: covers are drawn on the device. A provider saved here is kept, unused.',
  },
  text: {
    label: 'Text AI',
    models: [ON_DEVICE, 'GPT-4', 'GPT-3.5 Turbo', 'Claude 3', CUSTOM_ENDPOINT],
    purpose: 'Writes NFT descriptions in the Mint studio. The built-in generator works without a key.',
  },
  music: {
    label: 'Music AI',
    models: [ON_DEVICE, 'Suno v3', 'MusicGen', 'SoundStorm', CUSTOM_ENDPOINT],
    purpose:
      "Not called as shipped: the generator composes on the listener's device and needs no key. A provider saved here is kept, unused.",
  },
  inference: {
    label: 'Inference AI',
    models: ['OpenAI API', 'Hugging Face', CUSTOM_ENDPOINT],
    purpose: 'Not called as shipped. A provider saved here is kept, unused.',
  },
}

export function AiSettingsTab({ category }: { category: AiCategory }) {
  const meta = AI_CATEGORIES[category]
  const {
    saved,
    model,
    setModel,
    baseUrl,
    setBaseUrl,
    apiKey,
    setApiKey,
    custom,
    onDevice,
    error,
    busy,
    result,
    save: saveSettings,
    test,
  } = useAiSettings(category)

  const save = async (e: FormEvent, removeKey = false) => {
    e.preventDefault()
    if (await saveSettings(removeKey)) notify.success(`${meta.label} settings saved`)
  }

  return (
    <Panel
      title={meta.label}
      description={`${meta.purpose} The key is kept on the server: it is never shown again, only its last four characters.`}
    >
      <form onSubmit={(e) => void save(e)} className="space-y-3" aria-label={`${meta.label} settings`}>
        <Field label="Model">
          {(p) => (
            <select {...p} className={inputClass} value={model} onChange={(e) => setModel(e.target.value)} disabled={!saved}>
              {meta.models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
        </Field>
        {custom && (
          <Field label="Base URL" hint="An OpenAI-compatible API, e.g. https://models.example.com/v1">
            {(p) => (
              <input
                {...p}
                className={inputClass}
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.target.value)}
                placeholder="https://…/v1"
                inputMode="url"
              />
            )}
          </Field>
        )}
        {!onDevice && (
          <Field
            label="API key"
            hint={saved?.api_key_mask ? `Saved key: ${saved.api_key_mask}. Leave empty to keep it.` : 'No key saved yet.'}
          >
            {(p) => (
              <input
                {...p}
                type="password"
                autoComplete="off"
                className={inputClass}
                value={apiKey}
                onChange={(e) => setApiKey(e.target.value)}
                placeholder={saved?.api_key_mask ?? 'sk-…'}
              />
            )}
          </Field>
        )}
        <ErrorLine message={error} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={buttonClass} disabled={!saved || busy !== null}>
            {busy === 'save' ? 'Saving…' : 'Save'}
          </button>
          {!onDevice && (
            <button type="button" className={quietButtonClass} onClick={() => void test()} disabled={!saved || busy !== null}>
              {busy === 'test' ? 'Testing…' : 'Test connection'}
            </button>
          )}
          {saved?.api_key_mask && !onDevice && (
            <button type="button" className={quietButtonClass} onClick={(e) => void save(e, true)} disabled={busy !== null}>
              Remove saved key
            </button>
          )}
        </div>
        {result && (
          <p
            role="status"
            data-testid="connection-result"
            className={
              `rounded-md border px-3 py-2 text-sm ` +
              `${result.ok ? 'border-emerald-500/60 text-emerald-300' : 'border-red-500/60 text-red-400'}`
            }
          >
            {result.ok ? 'Connection OK — ' : 'Connection failed — '}
            {result.message}
          </p>
        )}
      </form>
    </Panel>
  )
}
