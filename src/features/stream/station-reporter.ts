import { startStationListen } from '../../backend/station.ts'
import { reportListen } from '../../backend/wallet.ts'
import { getStation, type StationState } from '../../engine/station/station-player.ts'
import { recipeId } from '../../engine/station/programme.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { applyListenAnswer } from '../../domain/economy/listen-reporter.ts'
import { ListenSessions, HEARTBEAT_MS } from '../../domain/economy/listen-session.ts'
import { takeInteraction } from '../../domain/economy/interaction.ts'

// CUBE Radio earns like any track: each piece on air is a listening session the server measures
// (opened by the piece's recipe id, which the server checks against the programme's clock).

const pageNonce = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`

export function startStationReporter(now: () => number = () => performance.now()): () => void {
  const titles = new Map<string, string>()
  let user = useSessionStore.getState().user?.id
  const sessions = new ListenSessions({
    server: { start: startStationListen, report: reportListen },
    now,
    takeInteraction,
    canReport: () => useSessionStore.getState().user !== null,
    onAnswer: (id, answer, previous) => {
      if (useSessionStore.getState().user?.id === user) applyListenAnswer(id, answer, previous, titles.get(id))
    },
    onError: (e: unknown) => console.warn('[stream] station listen', e),
  })
  const unsubscribeStation = getStation().subscribe((s: StationState) => {
    const current = s.current ? recipeId(s.current.recipe) : null
    if (current && s.current) titles.set(current, s.current.recipe.description.split(': ').slice(1).join(': '))
    sessions.observe({
      playKey: current && `${pageNonce}:${current}`,
      itemId: current,
      isPlaying: s.status === 'playing' && current !== null,
    })
  })
  const unsubscribeSession = useSessionStore.subscribe((s) => {
    if (s.user?.id === user) return
    user = s.user?.id
    sessions.reset()
  })
  const timer = setInterval(() => sessions.tick(), Math.min(HEARTBEAT_MS, 1000))
  return () => {
    unsubscribeStation()
    unsubscribeSession()
    clearInterval(timer)
  }
}
