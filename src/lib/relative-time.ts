// How long ago an ISO instant was, in the short words the activity lists use.
export function relativeTime(timestamp: string, now: number = Date.now()): string {
  const at = Date.parse(timestamp)
  if (Number.isNaN(at)) return timestamp
  const s = Math.max(0, Math.round((now - at) / 1000))
  if (s < 45) return 'just now'
  const m = Math.round(s / 60)
  if (m < 60) return `${m} min ago`
  const h = Math.round(m / 60)
  if (h < 24) return `${h} h ago`
  return `${Math.round(h / 24)} d ago`
}
