import { version } from '../../../package.json'
import { useHealthChecks } from './useHealthChecks.ts'
import { Panel, quietButtonClass } from './admin-ui.tsx'

export function ApiConfigTab() {
  const { url, results, checkAgain } = useHealthChecks()
  return (
    <Panel title="API Config" description="The backend this app talks to, checked live.">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted">Backend URL</dt>
        <dd className="break-all text-fg" data-testid="backend-url">
          {url}
        </dd>
        <dt className="text-muted">App version</dt>
        <dd className="text-fg" data-testid="app-version">
          {version}
        </dd>
      </dl>
      {!results ? (
        <p className="text-muted">Checking…</p>
      ) : (
        <ul className="space-y-2" data-testid="health-list">
          {results.map((r) => (
            <li key={r.name} className="flex items-center justify-between gap-3 rounded-md border border-line px-3 py-2 text-sm">
              <span className="text-fg">{r.name}</span>
              <span className={r.ok ? 'text-emerald-300' : 'text-red-400'}>
                {r.ok ? 'Healthy' : 'Failing'} · {r.detail} · {r.ms} ms
              </span>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className={quietButtonClass} onClick={checkAgain}>
        Check again
      </button>
    </Panel>
  )
}
