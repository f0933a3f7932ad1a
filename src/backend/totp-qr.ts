// supabase-js hands the TOTP QR code over as `data:image/svg+xml;utf-8,<svg …>` with the SVG
// unencoded. An SVG's colours ("#000000") then start the URL's fragment and the image is cut
// short: browsers show a broken image. Here the SVG is percent-encoded so every byte reaches the
// image decoder, whichever server (local or hosted GoTrue) drew it.
const SVG_PREFIX = /^data:image\/svg\+xml(;[^,]*)?,/

/** A data URL that shows the factor's QR code; already-encoded or base64 URLs pass through. */
export function totpQrImageUrl(qrCode: string): string {
  const raw = qrCode.trimStart()
  if (raw.startsWith('<')) return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(raw)}`
  const prefix = SVG_PREFIX.exec(raw)
  if (!prefix || prefix[1]?.includes('base64')) return raw
  const body = raw.slice(prefix[0].length)
  // Percent-encoded already (nothing but %XX escapes and safe characters): leave it.
  const svg = /^[^<>#"\s]*$/.test(body) ? decodeURIComponent(body) : body
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}
