import { usePlayerStore } from './player-store.ts'

/**
 * Whether this page may start sound without a click. Browsers decide (Chrome by the site's media
 * engagement, Firefox and Safari by a setting): where `navigator.getAutoplayPolicy` exists it says
 * so; elsewhere a fresh AudioContext tells, as it starts 'running' only where sound is allowed.
 */
export async function soundAllowedWithoutClick(): Promise<boolean> {
  const policy = (navigator as Navigator & { getAutoplayPolicy?: (type: 'audiocontext') => string }).getAutoplayPolicy
  if (typeof policy === 'function') {
    try {
      return policy.call(navigator, 'audiocontext') === 'allowed'
    } catch {
      // Fall through to the probe.
    }
  }
  if (typeof AudioContext === 'undefined') return false
  const probe = new AudioContext()
  try {
    // A context the policy blocks stays 'suspended'; one it allows is 'running' at once or within a tick.
    if (probe.state !== 'running') await Promise.race([probe.resume(), new Promise((r) => setTimeout(r, 150))])
    return (probe.state as string) === 'running'
  } finally {
    void probe.close().catch(() => {})
  }
}

/**
 * After a reload, a song that was playing plays on from its saved position where the browser
 * allows it; where it does not, the player keeps `resumeOffered` and shows the click to resume.
 */
export async function resumeAfterReload(allowed: () => Promise<boolean> = soundAllowedWithoutClick): Promise<boolean> {
  if (!usePlayerStore.getState().resumeOffered) return false
  let may = false
  try {
    may = await allowed()
  } catch {
    may = false
  }
  const s = usePlayerStore.getState()
  if (!may || !s.resumeOffered || s.isPlaying) return false
  s.play()
  return true
}
