import type { ProjectRole } from '../../../backend/project-collaboration.ts'

/** The role a collaborator gets (an invite by name, an invite link), with its label for screen readers. */
export function ProjectRoleSelect({
  id,
  label,
  value,
  onChange,
}: {
  id: string
  label: string
  value: ProjectRole
  onChange: (role: ProjectRole) => void
}) {
  return (
    <>
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="rounded border border-line bg-bg px-2 py-1"
        value={value}
        onChange={(e) => onChange(e.target.value as ProjectRole)}
      >
        <option value="editor">Editor</option>
        <option value="viewer">Viewer</option>
      </select>
    </>
  )
}
