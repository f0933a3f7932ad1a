import { useEffect, useState } from 'react'
import { notify } from '../../lib/notify.ts'
import { Icon } from '../../ui/Icon.tsx'
import { shareUrl, type TrackRecipe } from './share-link.ts'

/**
 * Share options for a generated track: its link (copy) and a QR code of it (qrcode loads lazily).
 * The link recreates the piece on the opener's device (see share-link.ts).
 */
export function SharePanel({ recipe, title, onClose }: { recipe: TrackRecipe; title: string; onClose: () => void }) {
  const link = shareUrl(window.location.origin, recipe)
  const [qr, setQr] = useState<string | null>(null)
  const [qrError, setQrError] = useState(false)
  const [copied, setCopied] = useState(false)

  useEffect(() => {
    let cancelled = false
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(link, { margin: 1, width: 160, color: { dark: '#00f0ffff', light: '#0a0a14ff' } }))
      .then((url) => !cancelled && setQr(url))
      .catch((err: unknown) => {
        console.error('[generator] QR code', err)
        if (!cancelled) setQrError(true)
      })
    return () => {
      cancelled = true
    }
  }, [link])

  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(t)
  }, [copied])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link)
      setCopied(true)
    } catch {
      notify.error('Could not copy the link', { description: 'Select the link and copy it by hand.' })
    }
  }

  return (
    <section aria-label={`Share ${title}`} className="panel flex flex-col gap-3 p-4" data-testid="share-panel">
      <div className="flex items-center justify-between">
        <h3 className="font-bold text-fg">Share “{title}”</h3>
        <button type="button" onClick={onClose} aria-label="Close share options" className="text-muted hover:text-fg">
          <Icon name="close" />
        </button>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          value={link}
          aria-label="Track link"
          className="min-w-0 flex-1 rounded-md border border-line bg-bg/60 px-2 py-1 font-mono text-xs text-fg"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          onClick={() => void copy()}
          className="rounded-md border border-primary px-3 py-1 text-sm font-semibold text-primary"
        >
          {copied ? 'Copied!' : 'Copy link'}
        </button>
      </div>
      {qr && <img src={qr} alt={`QR code for ${link}`} width={160} height={160} className="self-start rounded-md" />}
      {!qr && !qrError && <p className="text-sm text-muted">Drawing QR code…</p>}
      {qrError && <p className="text-sm text-secondary">QR code unavailable; the link above still works.</p>}
      <p className="text-xs text-muted">Whoever opens the link gets this very piece, composed and rendered on their own device.</p>
    </section>
  )
}
