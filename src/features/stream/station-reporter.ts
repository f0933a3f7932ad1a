import { recordStationListen } from '../../backend/station.ts'
import { getStation, type StationState } from '../../engine/station/station-player.ts'
import { PIECE_SECONDS, recipeId } from '../../engine/station/programme.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { applyListenAnswer } from '../../domain/economy/listen-reporter.ts'
import { useRewardRules } from '../../domain/economy/reward-rules.ts'

// CUBE Radio earns like any track: each piece the signed-in listener really hears for the
// qualifying time is reported once (by its recipe id) and the server decides the credit.

const pageNonce = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`

export function startStationReporter(now: () => number = () => performance.now()): () => void {
  let key: string | null = null
  let heard = 0
  let last: number | null = null
  let reported = false
  return getStation().subscribe((s: StationState) => {
    const t = now()
    const current = s.status === 'playing' && s.current ? recipeId(s.current.recipe) : null
    if (current !== key) {
      key = current
      heard = 0
      reported = false
    } else if (current && last !== null) heard += Math.min(2, (t - last) / 1000)
    last = current ? t : null
    const rules = useRewardRules.getState().rules.listen
    const threshold = Math.min(rules.qualify_seconds, PIECE_SECONDS * rules.qualify_fraction)
    const userId = useSessionStore.getState().user?.id
    if (!current || reported || heard < threshold || !userId) return
    reported = true
    const title = s.current!.recipe.description.split(': ').slice(1).join(': ')
    recordStationListen(current, Math.ceil(heard), `${pageNonce}:${current}`).then(
      (answer) => useSessionStore.getState().user?.id === userId && applyListenAnswer(current, answer, title),
      (e: unknown) => console.warn('[stream] station listen', e),
    )
  })
}
