import { beforeEach, describe, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { MemoryRouter } from 'react-router-dom'
import '../../styles/index.css'
import { render, settle } from '../../../tests/component/render.tsx'
import { CATALOGUE_SONGS } from '../../lib/catalogue/sample-songs.ts'
import { usePlayerStore } from '../../domain/playback/player-store.ts'
import { useSessionStore } from '../../domain/session/session-store.ts'
import { useListenMoment } from '../../domain/economy/listen-moment.ts'
import { applyListenAnswer } from '../../domain/economy/listen-reporter.ts'
import { parseListenAnswer } from '../../backend/wallet.ts'
import { SlotsProvider } from '../../ui/slots.tsx'
import { PlayerBar } from './PlayerBar.tsx'

// The earning moment is shown from the server's answer to a listen report: the credit with the
// song's name and the day's rewarded listens moving, and why a listen did not (yet) earn.

const firewall = CATALOGUE_SONGS.find((s) => s.id === 'firewall-of-iron')!
const neon = CATALOGUE_SONGS.find((s) => s.id === 'neon-drift')!

/** A listen_report answer as the server sends it (public.listen_answer in supabase/schemas/listening.sql). */
const answer = (fields: Record<string, unknown>) =>
  parseListenAnswer({
    session_id: 's1',
    heard_seconds: 0,
    ended: false,
    credited: 0,
    reason: null,
    needs_interaction: false,
    balance: 100,
    daily_earned: 6,
    listens_today: 3,
    daily_cap: 20,
    cap_reached: false,
    ...fields,
  })

const q = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)

async function mount() {
  render(
    <MemoryRouter>
      <SlotsProvider slots={{}}>
        <div className="relative mt-64">
          <PlayerBar />
        </div>
      </SlotsProvider>
    </MemoryRouter>,
  )
  await settle()
}

beforeEach(() => {
  useSessionStore.setState({ status: 'signed-in', user: { id: 'u1', email: 'u1@example.com' }, wallet: null, lastListen: null })
  useListenMoment.getState().clear()
  usePlayerStore.setState({ currentSong: firewall, queue: [firewall], isPlaying: true, position: 16, duration: firewall.seconds })
})

for (const [width, height] of [
  [1280, 800],
  [375, 812],
] as const) {
  describe(`at ${width} px`, () => {
    beforeEach(() => page.viewport(width, height))

    it('while undecided it says how far the listen is from 30 s; paused, that play must continue', async () => {
      await mount()
      await settle(() => applyListenAnswer(firewall.id, answer({ heard_seconds: 15 }), undefined, firewall.title))
      expect(q('listen-standing')?.textContent).toBe('Not yet 30 s: this listen earns once 30 s have played (15 s so far).')
      await settle(() => usePlayerStore.setState({ isPlaying: false }))
      expect(q('listen-standing')?.textContent).toBe('Paused after 15 s: a listen earns after 30 s of play.')
      expect(q('earn-moment')).toBeNull()
    })

    it('when the server credits the listen: "+3 CUBE · Firewall of Iron", and the day moves from 3 to 4 rewarded listens', async () => {
      await mount()
      const before = answer({ heard_seconds: 15 })
      applyListenAnswer(firewall.id, before, undefined, firewall.title)
      await settle(() =>
        applyListenAnswer(
          firewall.id,
          answer({ heard_seconds: 30, credited: 3, reason: 'credited', balance: 103, daily_earned: 9, listens_today: 4 }),
          before,
          firewall.title,
        ),
      )
      expect(q('earn-moment-title')?.textContent).toBe('+3 CUBE · Firewall of Iron')
      expect(q('earn-moment-day')?.textContent).toBe('4/20 rewarded listens today · 9 CUBE earned today')
      // The day's progress starts at the count before this listen and moves to the new one.
      await expect.poll(() => q('earn-moment-progress')?.dataset.listens).toBe('4')
      expect(q('earn-moment-progress')?.style.width).toBe('20%')
      expect(q('listen-standing')?.textContent).toBe('+3 CUBE credited for this listen.')
      // It fits the screen.
      const box = q('earn-moment')!.getBoundingClientRect()
      expect(box.left).toBeGreaterThanOrEqual(0)
      expect(box.right).toBeLessThanOrEqual(width)
    })

    it('says plainly why a listen earned nothing: the song paid twice today, the daily cap, the CUBE cap, no interaction', async () => {
      await mount()
      await settle(() => applyListenAnswer(firewall.id, answer({ heard_seconds: 30, reason: 'song_limit' }), undefined, firewall.title))
      expect(q('listen-standing')?.textContent).toBe('"Firewall of Iron" already paid twice today: other songs still earn.')
      await settle(() =>
        applyListenAnswer(firewall.id, answer({ heard_seconds: 30, reason: 'daily_cap', listens_today: 20 }), undefined, firewall.title),
      )
      expect(q('listen-standing')?.textContent).toBe('Daily cap reached (20 rewarded listens): listening earns again from 00:00 UTC.')
      await settle(() => applyListenAnswer(firewall.id, answer({ heard_seconds: 30, reason: 'cube_cap' }), undefined, firewall.title))
      expect(q('listen-standing')?.textContent).toBe("Listening has paid today's most (50 CUBE): it earns again from 00:00 UTC.")
      await settle(() => applyListenAnswer(firewall.id, answer({ heard_seconds: 30, reason: 'inactive' }), undefined, firewall.title))
      expect(q('listen-standing')?.textContent).toBe(
        'Rewards paused after an hour without a click or a key: answer "Still listening?" to earn again.',
      )
      expect(q('earn-moment')).toBeNull()
    })

    it("a credit of the previous song, settled by this play's start, names that song, not the one just started", async () => {
      await mount()
      const titles = new Map([
        [neon.id, neon.title],
        [firewall.id, firewall.title],
      ])
      await settle(() =>
        applyListenAnswer(
          firewall.id,
          answer({
            session_id: 's2',
            balance: 102,
            listens_today: 4,
            daily_earned: 8,
            previous: { song_id: neon.id, credited: 2, reason: 'credited' },
          }),
          undefined,
          firewall.title,
          (id) => titles.get(id),
        ),
      )
      expect(q('earn-moment-title')?.textContent).toBe('+2 CUBE · Neon Drift')
      expect(q('listen-standing')?.textContent).toBe('Not yet 30 s: this listen earns once 30 s have played (0 s so far).')
    })
  })
}

it('a visitor sees no earning line (nothing is reported for them)', async () => {
  useSessionStore.setState({ status: 'signed-out', user: null })
  await mount()
  useListenMoment.getState().setNow({ songId: firewall.id, title: firewall.title, heardSeconds: 10, reason: null, credited: 0 })
  await settle()
  expect(q('listen-standing')).toBeNull()
})
