import { useEffect } from 'react'
import { Link } from 'react-router-dom'
import { refreshAccountProjects } from './studio-project-sync.ts'
import { useAccountProjectStore } from '../../../domain/studio/account-project-store.ts'

/** The signed-in user's studio projects as the server lists them (names, track counts, where the audio is). */
export function StudioProjectsSection() {
  const projects = useAccountProjectStore((s) => s.projects)
  const status = useAccountProjectStore((s) => s.status)
  useEffect(() => {
    void refreshAccountProjects()
  }, [])

  return (
    <section className="panel space-y-3 p-5" aria-labelledby="profile-studio-projects" data-testid="studio-projects">
      <h2 id="profile-studio-projects" className="font-display text-lg font-bold text-primary">
        Studio Projects
      </h2>
      {status === 'error' && (
        <p role="alert" className="text-sm text-red-400">
          Your studio projects could not be loaded. Check your connection and reload the page.
        </p>
      )}
      {status === 'loading' && projects.length === 0 && <p className="text-sm text-muted">Loading studio projects…</p>}
      {status === 'ready' && projects.length === 0 && (
        <p className="text-sm text-muted">
          No studio projects yet.{' '}
          <Link to="/app/studio" className="text-primary underline">
            Open the Music Studio
          </Link>{' '}
          and save a project: it is kept here by itself.
        </p>
      )}
      {projects.length > 0 && (
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {projects.map((p) => (
            <li key={p.id} className="rounded-lg border border-line bg-bg/60 p-3" data-testid="profile-studio-project">
              <p className="font-semibold text-fg">{p.name}</p>
              <p className="text-xs text-muted">
                {p.trackCount} {p.trackCount === 1 ? 'track' : 'tracks'} · {Math.round(p.durationSeconds)} s
              </p>
              <p className="text-xs text-accent">
                {p.audioUploadedAt
                  ? 'Full copy in your account: opens in any browser'
                  : 'Audio not uploaded yet: it follows from the browser that saved it'}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
