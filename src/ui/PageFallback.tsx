export function PageFallback() {
  return (
    <div role="status" aria-live="polite" className="flex min-h-[40vh] items-center justify-center text-muted">
      <span className="animate-pulse font-display tracking-widest">LOADING…</span>
    </div>
  )
}
