/**
 * What a page shows while its code loads. The words stay at full contrast; only a dot beside them
 * pulses (a pulsing text dipped to 2.6:1 mid-pulse, which an axe scan caught on a loaded machine).
 */
export function PageFallback() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[40vh] items-center justify-center gap-3 text-muted">
      <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-primary" />
      <span className="font-display tracking-widest">LOADING…</span>
    </div>
  )
}
