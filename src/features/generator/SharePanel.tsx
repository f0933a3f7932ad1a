import { useEffect, useState } from 'react'
import { Icon } from '../../ui/Icon.tsx'
import { shareId, shareUrl, type TrackRecipe } from './share-link.ts'
import { sharedUrl, type ShareItem } from '../../domain/economy/share-item.ts'
import { useShareActions } from '../../domain/economy/useShareActions.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'

/**
 * Share options for a generated track: its link (copy) and a QR code of it (qrcode loads lazily).
 * The link recreates the piece on the opener's device (see share-link.ts). A signed-in creator's
 * copied link and QR code carry a share token, so the server credits them when someone else opens it.
 */
export function SharePanel({ recipe, title, onClose }: { recipe: TrackRecipe; title: string; onClose: () => void }) {
  const link = shareUrl(window.location.origin, recipe)
  const id = shareId(recipe)
  const signedIn = useSessionStore((s) => Boolean(s.user))
  const shareActions = useShareActions()
  // What the box shows: the copied (tokened) address of this very piece, else the plain one.
  const [copiedUrl, setCopiedUrl] = useState<{ of: string; url: string } | null>(null)
  const shown = copiedUrl?.of === link ? copiedUrl.url : link
  const [qrLink, setQrLink] = useState<string | null>(null)
  const [qr, setQr] = useState<string | null>(null)
  const [qrError, setQrError] = useState(false)
  const [copied, setCopied] = useState(false)
  const qrTarget = signedIn ? qrLink : link

  useEffect(() => {
    if (!signedIn) return
    let cancelled = false
    const item: ShareItem = { type: 'track', id, title }
    // The QR code's own link; when the server cannot make one, the plain address still works.
    void shareActions.share(item, 'qr').then((made) => {
      if (!cancelled) setQrLink(made ? sharedUrl(window.location.origin, 'track', id, made.token) : link)
    })
    return () => {
      cancelled = true
    }
  }, [signedIn, id, title, link, shareActions])

  useEffect(() => {
    if (!qrTarget) return
    let cancelled = false
    import('qrcode')
      .then((QRCode) => QRCode.toDataURL(qrTarget, { margin: 1, width: 160, color: { dark: '#00f0ffff', light: '#0a0a14ff' } }))
      .then((url) => !cancelled && setQr(url))
      .catch((err: unknown) => {
        console.error('[generator] QR code', err)
        if (!cancelled) setQrError(true)
      })
    return () => {
      cancelled = true
    }
  }, [qrTarget])

  useEffect(() => {
    if (!copied) return
    const t = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(t)
  }, [copied])

  const copy = async () => {
    const done = await shareActions.copy({ type: 'track', id, title })
    if (!done) return
    setCopiedUrl({ of: link, url: done.url })
    setCopied(true)
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
          value={shown}
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
      {qr && <img src={qr} alt={`QR code for ${qrTarget}`} width={160} height={160} className="self-start rounded-md" />}
      {!qr && !qrError && <p className="text-sm text-muted">Drawing QR code…</p>}
      {qrError && <p className="text-sm text-secondary">QR code unavailable; the link above still works.</p>}
      <p className="text-xs text-muted">Whoever opens the link gets this very piece, composed and rendered on their own device.</p>
    </section>
  )
}
