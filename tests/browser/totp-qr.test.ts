import { describe, expect, it } from 'vitest'
import jsQR from 'jsqr'
import QRCode from 'qrcode'
import { totpQrImageUrl } from '../../src/backend/totp-qr.ts'
import { totpQrSvg } from '../../supabase/local/auth/totp-qr-svg.ts'

// The two-factor QR code was a broken image. The SVG is drawn as the local Auth
// draws it and wrapped as supabase-js wraps it; the URL the app shows must load as an image and
// decode, pixel by pixel, back to the otpauth:// URI an authenticator app needs.

const URI = 'otpauth://totp/CUBE%20Music:neon%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=CUBE%20Music'

async function decode(src: string): Promise<string | null> {
  const img = new Image()
  img.src = src
  await img.decode()
  const size = 360
  const canvas = document.createElement('canvas')
  canvas.width = canvas.height = size
  const g = canvas.getContext('2d')!
  g.fillStyle = '#fff'
  g.fillRect(0, 0, size, size)
  g.drawImage(img, 20, 20, size - 40, size - 40)
  const pixels = g.getImageData(0, 0, size, size)
  return jsQR(pixels.data, size, size)?.data ?? null
}

describe('TOTP QR code', () => {
  it('shows the factor’s SVG as an image that decodes to the otpauth URI', async () => {
    const svg = await QRCode.toString(URI, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 })
    expect(svg).toContain('#')
    const fromSupabaseJs = `data:image/svg+xml;utf-8,${svg}`
    await expect(decode(fromSupabaseJs)).rejects.toThrow()
    expect(await decode(totpQrImageUrl(fromSupabaseJs))).toBe(URI)
  })

  it("the auth API's own qr_code loads as an image as supabase-js wraps it, unchanged, and decodes to the otpauth URI", async () => {
    const served = await totpQrSvg(URI)
    expect(served.startsWith('<svg')).toBe(true)
    expect(served).not.toMatch(/[#%]/)
    const asSupabaseJsHandsItOver = `data:image/svg+xml;utf-8,${served}`
    expect(await decode(asSupabaseJsHandsItOver)).toBe(URI)
    // The app's re-encoding still gives the same image.
    expect(await decode(totpQrImageUrl(asSupabaseJsHandsItOver))).toBe(URI)
    // As an SVG document of its own it is well formed.
    expect(new DOMParser().parseFromString(served, 'image/svg+xml').querySelector('parsererror')).toBeNull()
  })

  it('accepts a bare SVG, an encoded one and base64 as well', async () => {
    const svg = await QRCode.toString(URI, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 })
    expect(await decode(totpQrImageUrl(svg))).toBe(URI)
    const encoded = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
    expect(totpQrImageUrl(encoded)).toBe(encoded)
    const base64 = `data:image/svg+xml;base64,${btoa(svg)}`
    expect(totpQrImageUrl(base64)).toBe(base64)
    expect(await decode(totpQrImageUrl(base64))).toBe(URI)
  })
})
