import { startStationListen } from '../../backend/station.ts'
import { reportListen } from '../../backend/wallet.ts'
import { getStation, type StationState } from '../../engine/station/station-player.ts'
import { recipeId } from '../../engine/station/programme.ts'
import { accountListenSessions, playKey } from '../../domain/economy/listen-reporter.ts'

// CUBE Radio earns like any track: each piece on air is a listening session the server measures
// (opened by the piece's recipe id, which the server checks against the programme's clock).

export function startStationReporter(now: () => number = () => performance.now()): () => void {
  const listening = accountListenSessions({ server: { start: startStationListen, report: reportListen }, now, label: '[stream] station' })
  const unsubscribeStation = getStation().subscribe((s: StationState) => {
    const current = s.current ? recipeId(s.current.recipe) : null
    if (current && s.current) listening.titles.set(current, s.current.recipe.description.split(': ').slice(1).join(': '))
    listening.sessions.observe({
      playKey: current && playKey(current),
      itemId: current,
      isPlaying: s.status === 'playing' && current !== null,
    })
  })
  return () => {
    unsubscribeStation()
    listening.stop()
  }
}
