/**
 * Sizes a track drawing's canvas to `width` × `height` device pixels, clears it and sets the fill
 * to the theme's colour of a playing track (or of a muted one): the mixer's waveforms and the
 * timeline's clips draw on it the same way. Null when the browser gives no 2D context.
 */
export function clearTrackCanvas(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
  muted: boolean,
): { g: CanvasRenderingContext2D; w: number; h: number } | null {
  const w = Math.max(1, Math.round(width))
  const h = Math.max(1, Math.round(height))
  canvas.width = w
  canvas.height = h
  const g = canvas.getContext('2d')
  if (!g) return null
  g.clearRect(0, 0, w, h)
  const styles = getComputedStyle(canvas)
  g.fillStyle = muted ? styles.getPropertyValue('--theme-muted') || '#888' : styles.getPropertyValue('--theme-primary') || '#0ff'
  return { g, w, h }
}
