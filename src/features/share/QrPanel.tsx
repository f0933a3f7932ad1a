import { useEffect, useState } from 'react'

/** QR size in pixels and error-correction level H (survives a logo or a smudge over 30% of it). */
export const QR_SIZE = 180

/** The link as a QR code (qrcode, loaded lazily) with a PNG download. */
export function QrPanel({ link, name }: { link: string; name: string }) {
  const [png, setPng] = useState<string | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    let cancelled = false
    import('qrcode')
      .then((QRCode) =>
        QRCode.toDataURL(link, { width: QR_SIZE, margin: 2, errorCorrectionLevel: 'H', color: { dark: '#000000ff', light: '#ffffffff' } }),
      )
      .then((url) => !cancelled && setPng(url))
      .catch((err: unknown) => {
        console.error('[share] QR code', err)
        if (!cancelled) setFailed(true)
      })
    return () => {
      cancelled = true
    }
  }, [link])
  if (failed)
    return (
      <p role="alert" className="text-sm text-secondary">
        The QR code could not be drawn; copy the link instead.
      </p>
    )
  if (!png) return <p className="text-sm text-muted">Drawing QR code…</p>
  return (
    <div className="flex flex-wrap items-end gap-3" data-testid="share-qr">
      <img src={png} alt={`QR code for ${link}`} width={QR_SIZE} height={QR_SIZE} className="rounded-md" />
      <a
        href={png}
        download={`cube-${name.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 60)}-qr.png`}
        className="rounded-md border border-primary px-3 py-1.5 text-sm font-semibold text-primary"
      >
        Download PNG
      </a>
    </div>
  )
}
