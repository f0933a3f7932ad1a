// The avatar as uploaded: the picture's centred square, scaled to AVATAR_SIZE_PX, encoded in the
// browser (WebP, or PNG where WebP encoding is missing) so the upload is small and square.

export interface CropRect {
  sx: number
  sy: number
  size: number
}

/** The largest centred square of a w × h picture (what 'cover' shows in a round frame). */
export function centreSquare(width: number, height: number): CropRect {
  const size = Math.min(width, height)
  return { sx: Math.floor((width - size) / 2), sy: Math.floor((height - size) / 2), size }
}

/** Decodes `file`, crops its centre square and scales it to `px`; throws a user-worded Error. */
export async function squareAvatar(file: Blob, px: number): Promise<Blob> {
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    throw new Error('This file is not a picture the browser can open.')
  }
  try {
    const { sx, sy, size } = centreSquare(bitmap.width, bitmap.height)
    const canvas = new OffscreenCanvas(px, px)
    const g = canvas.getContext('2d')
    if (!g) throw new Error('This browser cannot resize pictures.')
    g.imageSmoothingQuality = 'high'
    g.drawImage(bitmap, sx, sy, size, size, 0, 0, px, px)
    const webp = await canvas.convertToBlob({ type: 'image/webp', quality: 0.9 })
    return webp.type === 'image/webp' ? webp : await canvas.convertToBlob({ type: 'image/png' })
  } finally {
    bitmap.close()
  }
}
