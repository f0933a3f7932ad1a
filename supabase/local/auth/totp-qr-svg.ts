import QRCode from 'qrcode'

/**
 * The enrolment QR code as the factor API returns it: an SVG that supabase-js (and any client)
 * may put behind `data:image/svg+xml;utf-8,` as it is. GoTrue's answer is a bare SVG and
 * supabase-js prefixes it unencoded, so a '#' (the colours, "#ffffff") would start the URL's
 * fragment and cut the image short: the colours are named instead, and a '%' or '#' that could
 * still occur is percent-encoded. The SVG stays a valid document on its own.
 */
export async function totpQrSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 1,
    color: { dark: '#000000', light: '#ffffff' },
  })
  return svg
    .replace(/#000000(ff)?/gi, 'black')
    .replace(/#ffffff(ff)?/gi, 'white')
    .replace(/[%#]/g, (c) => encodeURIComponent(c))
}
