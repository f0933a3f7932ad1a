/** Progress of a running generation, with Cancel. */
export function GenerationProgress({
  phase,
  progress,
  onCancel,
}: {
  phase: 'composing' | 'rendering'
  progress: number
  onCancel: () => void
}) {
  const pct = Math.round(progress * 100)
  const label = phase === 'composing' ? 'Composing…' : `Rendering audio… ${pct}%`
  return (
    <div className="flex flex-col gap-2" data-testid="generation-progress">
      <div className="flex items-center justify-between text-sm">
        <span className="text-fg" aria-live="polite">
          {label}
        </span>
        <button
          type="button"
          onClick={onCancel}
          className="rounded-md border border-secondary px-3 py-1 text-sm font-semibold text-secondary"
        >
          Cancel
        </button>
      </div>
      <div
        role="progressbar"
        aria-label="Generation progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        className="h-2 w-full overflow-hidden rounded-full bg-line/40"
      >
        <div className="h-full bg-primary transition-[width] duration-200" style={{ width: `${pct}%` }} />
      </div>
    </div>
  )
}
