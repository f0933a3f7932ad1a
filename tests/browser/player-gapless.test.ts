/**
 * The player deck measured on its rendered output in real Chromium: two short generated files (a
 * constant sine in each, float WAVs at the context's rate so decoding is exact) played through the
 * real deck on the app's live audio context, into the real master bus, whose output a recorder
 * worklet tap captures sample for sample (the way the recorder tap test checks its capture):
 *   - crossfade 0, through the player store and service: A (streamed, as a song the user starts is,
 *     then switched to its decoded copy on the element's frame) then B then A again (both decoded
 *     ahead): every frame in place across the switch and both boundaries (B is not restarted when the
 *     store catches up with the deck); a held tone, whose frame cannot be found for sure, stays
 *     streamed and hands over within the overlap that covers the element's clock, with no gap;
 *   - crossfade 2 s: the summed power of the two (uncorrelated) tones stays within 0.5 dB of the
 *     level before the fade, while each tone really fades (-3 dB each halfway);
 *   - the per-item gain hook: -6.02 dB halves the item's level.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { getAudioContext } from '../../src/engine/audio-context.ts'
import { getMasterBus } from '../../src/engine/master-bus.ts'
import { createCaptureTap, loadRecorderWorklet } from '../../src/engine/recorder-worklet.ts'
import { STREAM_OVERLAP_S, getPlayerDeck, type DeckEvent } from '../../src/engine/player-deck.ts'
import { truePeakDbtp } from '../../dsp/true-peak.ts'
import { encodeWav } from '../../src/engine/workers.ts'
import { locateCapture } from '../../dsp/stream-align.ts'
import { noise } from '../../audio-worklets/kernels/test-signals.ts'
import { usePlayerStore } from '../../src/domain/playback/player-store.ts'
import { startPlayerService } from '../../src/domain/playback/player-service.ts'
import type { Song } from '../../src/lib/catalogue/song.ts'

const AMPLITUDE = 0.25
const SILENCE = 1e-4

async function context() {
  const ctx = getAudioContext()
  await ctx.resume()
  expect(ctx.state).toBe('running')
  return ctx
}

/** A sine of `periodFrames` frames per cycle (so windows of whole periods measure it exactly). */
function tone(seconds: number, periodFrames: number, sampleRate: number): Float32Array {
  const n = Math.round(seconds * sampleRate)
  return new Float32Array(n).map((_, i) => AMPLITUDE * Math.sin((2 * Math.PI * i) / periodFrames))
}

/** A sweep from 300 Hz upward (never repeats, so where it sits in a capture is unambiguous). */
function sweep(seconds: number, hzPerSecond: number, sampleRate: number): Float32Array {
  const n = Math.round(seconds * sampleRate)
  return new Float32Array(n).map((_, i) => {
    const t = i / sampleRate
    return AMPLITUDE * Math.sin(2 * Math.PI * (300 * t + (hzPerSecond / 2) * t * t))
  })
}

/** A queue item for the player store (the duration shown; the deck measures its own). */
const testSong = (id: string, audioUrl: string, duration = '0:02'): Song => ({
  id,
  title: id,
  artist: 'Test',
  duration,
  image: '/x.svg',
  audioUrl,
})

/** The player store driving the real deck, at full volume and with no crossfade. */
function playerAtFullVolume() {
  startPlayerService()
  const store = usePlayerStore.getState()
  store.setVolume(100)
  store.setCrossfade(0)
  return store
}

/** Calls `seen` on every media element's play() or pause() (then does it) until the returned function is called. */
function onElementCall(method: 'play' | 'pause', seen: (el: HTMLMediaElement) => void): () => void {
  const original = HTMLMediaElement.prototype[method]
  HTMLMediaElement.prototype[method] = function (this: HTMLMediaElement) {
    seen(this)
    return (original as () => Promise<void> | void).call(this)
  } as never
  return () => void (HTMLMediaElement.prototype[method] = original as never)
}

/** Makes `ctx.currentTime` read `seconds` behind until the returned function is called. */
function stallClock(ctx: object, seconds: number): () => void {
  let proto = Object.getPrototypeOf(ctx)
  let desc: PropertyDescriptor | undefined
  while (proto && !(desc = Object.getOwnPropertyDescriptor(proto, 'currentTime'))) proto = Object.getPrototypeOf(proto)
  const get = desc!.get!
  Object.defineProperty(ctx, 'currentTime', { configurable: true, get: () => (get.call(ctx) as number) - seconds })
  return () => void delete (ctx as { currentTime?: number }).currentTime
}

/** x plus deterministic white noise of peak `level`. */
function withNoise(x: Float32Array, level: number): Float32Array {
  const hiss = noise(x.length, level)
  return x.map((v, i) => v + hiss[i]!)
}

async function wavUrl(samples: Float32Array, sampleRate: number): Promise<string> {
  return URL.createObjectURL(await encodeWav([samples], sampleRate, 'float32'))
}

/** Captures the master bus output from now until stop(). */
async function captureBus() {
  const ctx = await context()
  await loadRecorderWorklet(ctx)
  const parts: Float32Array[] = []
  const tap = createCaptureTap(ctx, { channels: 1, blockFrames: 4864, onBlock: (c) => parts.push(c[0]!.slice()) })
  const bus = getMasterBus()
  bus.analyser.connect(tap.node)
  tap.node.connect(ctx.destination)
  return {
    async stop(): Promise<Float32Array> {
      await tap.stop()
      bus.analyser.disconnect(tap.node)
      tap.node.disconnect()
      const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0))
      let at = 0
      for (const p of parts) {
        out.set(p, at)
        at += p.length
      }
      return out
    },
  }
}

function waitFor(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const check = () => {
      if (predicate()) return resolve()
      if (performance.now() - started > timeoutMs) return reject(new Error(`timed out waiting for ${what}`))
      setTimeout(check, 20)
    }
    check()
  })
}

/** Index of the first sample louder than the threshold. */
const firstSound = (x: Float32Array, from = 0) => {
  for (let i = from; i < x.length; i++) if (Math.abs(x[i]!) > 0.01) return i
  return -1
}

/** The longest run of |x| < SILENCE between from and to, in frames. */
function longestSilence(x: Float32Array, from: number, to: number): number {
  let run = 0
  let longest = 0
  for (let i = from; i < to; i++) {
    if (Math.abs(x[i]!) < SILENCE) longest = Math.max(longest, ++run)
    else run = 0
  }
  return longest
}

/**
 * Where `expected` sits in `x` (the lag near the first sound that matches best), and how far `x` strays
 * from it after `settle` frames: the bus's limiter rides its gain for the first ~0.1 s after sound
 * starts from silence (a property of the master bus, not of the deck), so the comparison starts later.
 */
function alignment(x: Float32Array, expected: Float32Array, settle: number): { start: number; relativeError: number } {
  const near = firstSound(x)
  let best = { start: near, err: Infinity }
  for (let s = near - 4; s <= near + 4; s++) {
    let err = 0
    for (let i = settle; i < settle + 2000; i++) err += (x[s + i]! - expected[i]!) ** 2
    if (err < best.err) best = { start: s, err }
  }
  let err = 0
  let ref = 0
  for (let i = settle; i < expected.length; i++) {
    err += (x[best.start + i]! - expected[i]!) ** 2
    ref += expected[i]! ** 2
  }
  return { start: best.start, relativeError: Math.sqrt(err / ref) }
}

/** The lag in [from, to] where x matches `expected` best, compared on expected[skip, skip + 2000). */
function bestLag(x: Float32Array, expected: Float32Array, from: number, to: number, skip: number): number {
  let best = { lag: from, err: Infinity }
  for (let lag = from; lag <= to; lag++) {
    let err = 0
    for (let i = skip; i < skip + 2000 && err < best.err; i++) err += (x[lag + i]! - expected[i]!) ** 2
    if (err < best.err) best = { lag, err }
  }
  return best.lag
}

/** RMS of x - expected (placed at `start`) relative to expected's RMS, from frame `skip` on. */
function residual(x: Float32Array, expected: Float32Array, start: number, skip: number): number {
  let err = 0
  let ref = 0
  for (let i = skip; i < expected.length; i++) {
    err += (x[start + i]! - expected[i]!) ** 2
    ref += expected[i]! ** 2
  }
  return Math.sqrt(err / ref)
}

/** The stretch of `frames` where x strays most from `expected` (placed at `start`), from frame `skip` on. */
function worstStretch(x: Float32Array, expected: Float32Array, start: number, skip: number, frames: number) {
  let worst = { at: 0, residual: 0 }
  for (let f = skip; f + frames <= expected.length; f += frames) {
    const r = residual(x, expected.subarray(f, f + frames), start + f, 0)
    if (r > worst.residual) worst = { at: f, residual: r }
  }
  return worst
}

const rms = (x: Float32Array, from: number, n: number) => {
  let s = 0
  for (let i = from; i < from + n; i++) s += x[i]! ** 2
  return Math.sqrt(s / n)
}

/** Amplitude of the sine with `period` frames in x[from, from + n) (n a whole number of periods). */
function toneAmplitude(x: Float32Array, from: number, n: number, period: number): number {
  let re = 0
  let im = 0
  for (let i = 0; i < n; i++) {
    re += x[from + i]! * Math.cos((2 * Math.PI * i) / period)
    im += x[from + i]! * Math.sin((2 * Math.PI * i) / period)
  }
  return (2 * Math.hypot(re, im)) / n
}

const dB = (ratio: number) => 20 * Math.log10(ratio)

/**
 * A 1.5 s, 100-frame-period tone of AMPLITUDE loaded on the deck with `gainDb` (volume 100, no
 * crossfade) and played to its end while the bus is captured; `whilePlaying` runs once it plays.
 */
async function playToneToItsEnd(gainDb: number, whilePlaying: (deck: ReturnType<typeof getPlayerDeck>) => Promise<void>) {
  const ctx = await context()
  const sr = ctx.sampleRate
  const deck = getPlayerDeck()
  deck.setVolume(100)
  deck.setCrossfade(0)
  await deck.load(await wavUrl(tone(1.5, 100, sr), sr), 'A', { gainDb })
  const capture = await captureBus()
  await deck.play()
  await whilePlaying(deck)
  let ended = false
  const off = deck.on((e) => void (e.type === 'ended' && (ended = true)))
  await waitFor(() => ended, 'the end of A')
  off()
  const x = await capture.stop()
  return { x, start: firstSound(x, 0), sr }
}

afterEach(() => {
  usePlayerStore.getState().clearQueue()
  getPlayerDeck().stop()
})

describe('player deck on the rendered output', () => {
  it('crossfade 0 through the store: A streamed, then switched to its decoded copy, → B → A again, every frame in place', async () => {
    const ctx = await context()
    const sr = ctx.sampleRate
    // A sweep alone is nearly periodic over the deck's 0.17 s look; a little noise makes it music-like.
    // Six seconds: the deck tries to find the element's frame again 2 s after a failed try, and
    // switches only with a second or more left, so A leaves room for three tries.
    const a = withNoise(sweep(6, 50, sr), 0.025)
    const b = sweep(1, 400, sr)
    const songA = testSong('tone-a', await wavUrl(a, sr), '0:06')
    const songB = testSong('tone-b', await wavUrl(b, sr), '0:01')
    const store = playerAtFullVolume()
    const capture = await captureBus()
    // When the element is let go (the switch pauses it once the buffer has taken over).
    const pauses: number[] = []
    const restore = onElementCall('pause', () => pauses.push(ctx.currentTime))
    store.playSong(songA)
    store.addToQueue(songB)
    // The store follows the deck: B becomes current at A's end, then A again (the queue wraps).
    await waitFor(() => usePlayerStore.getState().currentSong?.id === songB.id, 'B to become current').finally(restore)
    const bBecameCurrent = ctx.currentTime
    const playIdOfB = usePlayerStore.getState().playId
    await waitFor(() => usePlayerStore.getState().currentSong?.id === songA.id, 'A to come round again')
    await new Promise((r) => setTimeout(r, 300))
    const x = await capture.stop()
    expect(usePlayerStore.getState().error).toBeNull()
    expect(usePlayerStore.getState().playId).toBe(playIdOfB + 1)

    // A was started by the user, so it began streamed through the media element; once its file was in,
    // the deck found the element's frame and switched A to its decoded copy there. So the output is A
    // sample for sample (across the switch), B from the frame after A's last, and A again after B's.
    const aStart = alignment(x, a, Math.round(sr / 5)).start
    const whole = new Float32Array(a.length + b.length + sr / 4)
    whole.set(a)
    whole.set(b, a.length)
    whole.set(a.subarray(0, sr / 4), a.length + b.length)
    const exact = residual(x, whole, aStart, Math.round(sr / 5))
    const worst = worstStretch(x, whole, aStart, Math.round(sr / 5), Math.round(sr / 10))
    const gap = longestSilence(x, aStart + 10, aStart + whole.length - 10)
    console.info(
      `gapless: longest silence ${((gap / sr) * 1000).toFixed(3)} ms across both boundaries; ` +
        `residual from A's first 0.2 s on ${exact}, worst 0.1 s ${worst.residual.toExponential(1)} at ${(worst.at / sr).toFixed(1)} s`,
    )
    // The switch came mid-song (over a second before A's end, after its first 0.25 s), inside the
    // stretch compared.
    const beforeEnd = pauses.map((t) => bBecameCurrent - t)
    expect(
      beforeEnd.some((s) => s > 1 && s < 5.75),
      `element paused ${beforeEnd.join(', ')} s before A's end`,
    ).toBe(true)
    expect(exact).toBeLessThan(1e-3)
    expect((gap / sr) * 1000).toBeLessThan(5)
  }, 60_000)

  it('a catalogue song (MP3 at 44.1 kHz) the user starts switches to its decoded copy mid-song without a seam', async () => {
    const ctx = await context()
    const sr = ctx.sampleRate
    const url = '/audio/catalogue/aurora-buffer.mp3'
    const decoded = await ctx.decodeAudioData(await (await fetch(url)).arrayBuffer())
    const song = new Float32Array(decoded.length)
    for (let c = 0; c < decoded.numberOfChannels; c++) {
      const d = decoded.getChannelData(c)
      for (let i = 0; i < d.length; i++) song[i] = song[i]! + d[i]! / decoded.numberOfChannels
    }
    const deck = getPlayerDeck()
    deck.setVolume(100)
    deck.setCrossfade(0)
    const pauses: number[] = []
    const restore = onElementCall('pause', () => pauses.push(ctx.currentTime))
    try {
      // 12 dB down, so neither limiter touches it and the output is the file times one gain.
      await deck.load(url, 'Aurora Buffer', { gainDb: -12 })
      const capture = await captureBus()
      const played = ctx.currentTime
      await deck.play()
      await waitFor(() => pauses.length > 0, 'the switch to the decoded copy')
      await new Promise((r) => setTimeout(r, 600))
      const x = await capture.stop()
      deck.stop()
      const switchedAfter = pauses[0]! - played
      // Where the song's frame 0 sits in the capture: its last 0.2 s found in the decoded file.
      const probe = x.length - 8192 - Math.round(sr / 20)
      const found = locateCapture(x.subarray(probe, probe + 8192), song, probe, probe)
      expect(found).not.toBeNull()
      const origin = probe - found!.frame
      // From 0.3 s into the song to the end of the capture, across the switch: the file times one
      // gain, in every 50 ms (a seam, a frame off or a doubled stretch would stand out by orders).
      const from = Math.round(sr * 0.3)
      const to = x.length - origin
      let xy = 0
      let yy = 0
      for (let i = from; i < to; i++) {
        xy += x[origin + i]! * song[i]!
        yy += song[i]! ** 2
      }
      const gain = xy / yy
      const scaled = song.subarray(0, to).map((v) => v * gain)
      const worst = worstStretch(x, scaled, origin, from, Math.round(sr / 20))
      console.info(
        `catalogue MP3: switched to the decoded copy ${switchedAfter.toFixed(2)} s after Play; output against the file ` +
          `× ${gain.toFixed(4)}: worst 50 ms ${worst.residual.toExponential(1)} at ${(worst.at / sr).toFixed(2)} s ` +
          `(capture ${(to / sr).toFixed(2)} s)`,
      )
      expect(switchedAfter).toBeGreaterThan(0.3)
      expect(switchedAfter).toBeLessThan(to / sr - 0.1)
      expect(Math.abs(gain - 10 ** (-12 / 20))).toBeLessThan(0.01)
      expect(worst.residual).toBeLessThan(1e-3)
    } finally {
      restore()
    }
  }, 60_000)

  it('a streamed item whose frame cannot be found for sure (a held tone) hands over within the overlap, with no gap', async () => {
    const ctx = await context()
    const sr = ctx.sampleRate
    const a = tone(2, 100, sr)
    const b = sweep(1, 400, sr)
    const songA = testSong('held-a', await wavUrl(a, sr))
    const songB = testSong('sweep-b', await wavUrl(b, sr))
    const store = playerAtFullVolume()
    const capture = await captureBus()
    store.playSong(songA)
    store.addToQueue(songB)
    await waitFor(() => usePlayerStore.getState().currentSong?.id === songB.id, 'B to become current')
    await new Promise((r) => setTimeout(r, 1300))
    const x = await capture.stop()
    expect(usePlayerStore.getState().error).toBeNull()
    // Every period of a held tone matches, so the deck keeps A streamed and overlaps its estimated end.
    const aStart = firstSound(x)
    const bStart = bestLag(x, b, aStart + a.length - Math.round(sr / 10), aStart + a.length + Math.round(sr / 10), Math.round(sr / 10))
    const handoverMs = ((bStart - (aStart + a.length - Math.round(STREAM_OVERLAP_S * sr))) / sr) * 1000
    expect(residual(x, b, bStart, Math.round(STREAM_OVERLAP_S * sr) + 10)).toBeLessThan(1e-3)
    const gap = longestSilence(x, aStart + 10, bStart + b.length - 10)
    console.info(
      `held tone: streamed → decoded handover ${handoverMs.toFixed(1)} ms off the element's reported end; longest silence ${gap} frames`,
    )
    expect((gap / sr) * 1000).toBeLessThan(5)
    expect(Math.abs(handoverMs)).toBeLessThan(STREAM_OVERLAP_S * 1000)
  }, 60_000)

  it('Next on the item decoded ahead starts that decoded item: the media element is not asked to play, and it sounds', async () => {
    const ctx = await context()
    const sr = ctx.sampleRate
    const songA = testSong('next-a', await wavUrl(tone(4, 100, sr), sr), '0:04')
    const songB = testSong('next-b', await wavUrl(tone(4, 64, sr), sr), '0:04')
    const store = playerAtFullVolume()
    store.playSong(songA)
    store.addToQueue(songB)
    // The deck's own record of what it decoded ahead (internal: the only way to know it is ready).
    const deck = getPlayerDeck() as unknown as { nextBuffer: { url: string } | null }
    await waitFor(() => deck.nextBuffer?.url === songB.audioUrl, 'B to be decoded ahead')
    const elementPlays: unknown[] = []
    const restore = onElementCall('play', (el) => elementPlays.push(el.src))
    try {
      const capture = await captureBus()
      usePlayerStore.getState().next()
      await waitFor(() => usePlayerStore.getState().currentSong?.id === songB.id && usePlayerStore.getState().isPlaying, 'B to play')
      await new Promise((r) => setTimeout(r, 400))
      const x = await capture.stop()
      expect(elementPlays).toEqual([])
      // B's tone (64-frame period) is what plays now.
      const tail = x.subarray(x.length - 64 * 40)
      let best = 0
      for (const period of [64, 100]) {
        let corr = 0
        for (let i = 0; i + period < tail.length; i++) corr += tail[i]! * tail[i + period]!
        if (period === 64) best = corr
        else expect(best).toBeGreaterThan(Math.abs(corr))
      }
      expect(Math.sqrt(tail.reduce((a, v) => a + v * v, 0) / tail.length)).toBeGreaterThan(AMPLITUDE / 2)
    } finally {
      restore()
    }
  })

  it('a start due now that the audio thread reaches late: the deck hears where the item is; the next starts on its end', async () => {
    const ctx = await context()
    const sr = ctx.sampleRate
    const x0 = withNoise(sweep(3, 50, sr), 0.025)
    const a = withNoise(sweep(2, 100, sr), 0.025)
    const b = withNoise(sweep(1, 400, sr), 0.025)
    const songX = testSong('late-x', await wavUrl(x0, sr))
    const songA = testSong('late-a', await wavUrl(a, sr))
    const songB = testSong('late-b', await wavUrl(b, sr))
    const store = playerAtFullVolume()
    store.playSong(songX)
    store.addToQueue(songA)
    store.addToQueue(songB)
    const internals = getPlayerDeck() as unknown as { nextBuffer: { url: string } | null }
    await waitFor(() => internals.nextBuffer?.url === songA.audioUrl, 'A to be decoded ahead')
    await new Promise((r) => setTimeout(r, 1000))
    const capture = await captureBus()
    // Next reads a clock 30 ms behind the audio thread's (as when the main thread is held up between
    // reading it and starting the item): A's start, due "now", is reached 30 ms after it was due.
    const restore = stallClock(ctx, 0.03)
    const deckState = getPlayerDeck() as unknown as { current: { label: string; clock: object } | null }
    // A holder, not a bare variable: the listener fills it later, which narrowing cannot see.
    const voiceA: { current: { label: string; clock: object } | null } = { current: null }
    const off = getPlayerDeck().on((e) => {
      if (e.type !== 'playing') return
      restore()
      voiceA.current ??= deckState.current
    })
    try {
      usePlayerStore.getState().next()
      await waitFor(() => usePlayerStore.getState().currentSong?.id === songB.id, 'B to follow A')
    } finally {
      restore()
      off()
    }
    // What the deck's check of A's clock came to (when it fails, this tells whether it was tried).
    console.info(`late start: A's clock ${JSON.stringify(voiceA.current?.clock)}`)
    await new Promise((r) => setTimeout(r, 800))
    const x = await capture.stop()
    expect(usePlayerStore.getState().error).toBeNull()
    // Where A and B sit in the capture: a stretch of each found in its file.
    const place = (file: Float32Array, at: number) => {
      const found = locateCapture(x.subarray(at, at + 8192), file, file.length / 2, file.length / 2)
      expect(found, 'a stretch of the capture found in its file').not.toBeNull()
      return at - found!.frame
    }
    const bStart = place(b, x.length - 8192 - Math.round(sr / 5))
    const aStart = place(a, bStart - Math.round(sr / 2) - 8192)
    console.info(`late start: B began ${bStart - aStart - a.length} frames after A's last (A is ${a.length} frames)`)
    expect(bStart - aStart).toBe(a.length)
    const ab = new Float32Array(a.length + b.length)
    ab.set(a)
    ab.set(b, a.length)
    // Up to half a second of B, as far as the capture reaches (its last partial block is dropped).
    const upTo = Math.min(a.length + sr / 2, x.length - aStart)
    expect(upTo).toBeGreaterThan(a.length + sr / 5)
    expect(residual(x, ab.subarray(0, upTo), aStart, Math.round(sr / 5))).toBeLessThan(1e-3)
  }, 60_000)

  it('crossfade 2 s: equal power within 0.5 dB while each tone fades by -3 dB at the midpoint', async () => {
    const ctx = await context()
    const sr = ctx.sampleRate
    const [pa, pb] = [100, 80]
    // Long enough for the whole 2 s (a crossfade overlaps at most half of either item).
    const a = tone(4.2, pa, sr)
    const b = tone(4.2, pb, sr)
    const deck = getPlayerDeck()
    const events: DeckEvent['type'][] = []
    const off = deck.on((e) => e.type !== 'time' && events.push(e.type))
    deck.setVolume(100)
    deck.setCrossfade(2)
    await deck.load(await wavUrl(a, sr), 'A')
    deck.preload(await wavUrl(b, sr), 'B')
    // Let the decode ahead finish so the handover is scheduled from the start.
    await new Promise((r) => setTimeout(r, 300))
    const capture = await captureBus()
    await deck.play()
    await waitFor(() => events.filter((t) => t === 'ended').length === 2, 'A to hand over and B to end')
    const x = await capture.stop()
    off()
    expect(events).toEqual(['playing', 'ended', 'playing', 'ended'])

    const start = firstSound(x)
    const fadeFrom = start + a.length - 2 * sr
    const fadeTo = start + a.length
    const win = 400 // 4 periods of A, 5 of B, 9 of their sum: the cross term averages to 0
    const reference = rms(x, start + sr / 2, sr)
    expect(Math.abs(dB(reference / (AMPLITUDE / Math.SQRT2)))).toBeLessThan(0.1)
    let worst = 0
    for (let i = fadeFrom - 10 * win; i + win <= fadeTo + 10 * win; i += win)
      worst = Math.max(worst, Math.abs(dB(rms(x, i, win) / reference)))
    console.info(`crossfade 2 s: summed power stays within ${worst.toFixed(3)} dB of the level before the fade`)
    expect(worst).toBeLessThan(0.5)

    // It is a real fade, not a cut: halfway each tone is at -3 dB; before, only A; after, only B.
    const mid = Math.round((fadeFrom + fadeTo) / 2 - win / 2)
    const ref = AMPLITUDE
    expect(Math.abs(dB(toneAmplitude(x, mid, win, pa) / ref) + 3.01)).toBeLessThan(0.5)
    expect(Math.abs(dB(toneAmplitude(x, mid, win, pb) / ref) + 3.01)).toBeLessThan(0.5)
    expect(toneAmplitude(x, fadeFrom - 2 * win, win, pb)).toBeLessThan(1e-3)
    expect(toneAmplitude(x, fadeTo + 2 * win, win, pa)).toBeLessThan(1e-3)
    // A quarter of the way in: cos/sin, not linear.
    const q = Math.round(fadeFrom + (fadeTo - fadeFrom) / 4 - win / 2)
    expect(Math.abs(toneAmplitude(x, q, win, pa) / ref - Math.cos(Math.PI / 8))).toBeLessThan(0.02)
    expect(Math.abs(toneAmplitude(x, q, win, pb) / ref - Math.sin(Math.PI / 8))).toBeLessThan(0.02)
  }, 60_000)

  it('the per-item gain: -6.02 dB halves the item, and can change while it plays', async () => {
    const { x, start, sr } = await playToneToItsEnd(-6.0206, async (deck) => {
      await new Promise((r) => setTimeout(r, 600))
      deck.setItemGainDb(0)
    })
    const halved = toneAmplitude(x, start + Math.round(sr / 4), 4000, 100)
    const full = toneAmplitude(x, start + Math.round(1.2 * sr), 4000, 100)
    expect(Math.abs(dB(halved / (AMPLITUDE / 2)))).toBeLessThan(0.1)
    expect(Math.abs(dB(full / AMPLITUDE))).toBeLessThan(0.1)
  }, 60_000)

  // Last: it drives the master bus's limiter, whose gain then recovers slowly, and the tests
  // above compare the bus output sample for sample.
  it('the true-peak limiter: an item boosted 9 dB past full scale leaves the deck at or below −1 dBTP', async () => {
    // A 0.25-amplitude tone (−12 dBFS) boosted 21 dB would peak at +9 dBFS.
    const { x, start, sr } = await playToneToItsEnd(21, async (deck) => expect(deck.hasLimiter).toBe(true))
    const held = x.subarray(start + Math.round(sr / 4), start + Math.round(1.2 * sr))
    expect(truePeakDbtp([held])).toBeLessThanOrEqual(-1)
    // Limited, not silenced: the tone is at the ceiling.
    expect(truePeakDbtp([held])).toBeGreaterThan(-1.5)
  }, 60_000)
})
