const cssVar = (name: string, fallback: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback

/** The one look of every wavesurfer.js waveform in the app, read from the live theme colours. */
export function themedWaveformStyle(height: number) {
  return {
    height,
    normalize: true,
    waveColor: cssVar('--theme-secondary', '#ff00c8'),
    progressColor: cssVar('--theme-primary', '#00f0ff'),
    cursorColor: cssVar('--theme-accent', '#f5ff00'),
    barWidth: 2,
    barGap: 1,
    barRadius: 1,
  }
}
