/**
 * Time from Play to sound, on the real player store, service and deck in
 * Chromium, measured where the app's audio leaves the graph: the master bus analyser, polled on a
 * message-channel loop (about 0.1–1 ms between looks) until a block of the new song is in it.
 * The device's own output latency is not included (it is the same for every player on the machine).
 *   - Play a song that is not preloaded: the deck streams it through the media element (a song the
 *     user starts), so the figure covers fetching its first bytes, the element starting and the graph.
 *   - Next with the next item preloaded: the deck decoded it ahead and starts it on the audio clock.
 *   - CUBE Radio: Play until its first piece is scheduled (it then sounds 50 ms later on the audio
 *     clock): the piece is composed and its first seconds rendered offline first (the rest renders
 *     while they play); a restart finds it rendered.
 * Songs are WAV blobs of steady tones (10 s, new files every trial so nothing is cached); the playing
 * song is at a twentieth of the next one's level, so "the next song sounds" is told apart from it.
 */
import { getAudioContext } from '../../src/engine/audio-context.ts'
import { getMasterBus } from '../../src/engine/master-bus.ts'
import { encodeWav } from '../../src/engine/workers.ts'
import { StationPlayer } from '../../src/engine/station/station-player.ts'
import { usePlayerStore } from '../../src/domain/playback/player-store.ts'
import { startPlayerService } from '../../src/domain/playback/player-service.ts'
import type { Song } from '../../src/lib/catalogue/song.ts'
import type { BenchResult } from '../types.ts'

const TRIALS = 12
const LOUD = 0.5
const QUIET = LOUD / 20

const tick = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => resolve()
    channel.port2.postMessage(null)
  })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

let n = 0
async function toneSong(amplitude: number): Promise<Song> {
  const ctx = getAudioContext()
  const samples = new Float32Array(10 * ctx.sampleRate).map((_, i) => amplitude * Math.sin((2 * Math.PI * 441 * i) / ctx.sampleRate))
  const url = URL.createObjectURL(await encodeWav([samples], ctx.sampleRate, 'float32'))
  const id = `tone-${++n}`
  return { id, title: id, artist: 'Bench', duration: '0:10', image: '/x.svg', audioUrl: url }
}

/** performance.now() when the bus first carries a sample above `level`; rejects after `timeoutMs`. */
async function soundAbove(level: number, timeoutMs = 10_000): Promise<number> {
  const analyser = getMasterBus().analyser
  const block = new Float32Array(analyser.fftSize)
  const until = performance.now() + timeoutMs
  while (performance.now() < until) {
    analyser.getFloatTimeDomainData(block)
    let peak = 0
    for (let i = 0; i < block.length; i++) peak = Math.max(peak, Math.abs(block[i]!))
    if (peak > level) return performance.now()
    await tick()
  }
  throw new Error(`no sound above ${level} within ${timeoutMs} ms`)
}

async function silence() {
  const store = usePlayerStore.getState()
  store.pause()
  store.clearQueue()
  usePlayerStore.setState({ currentSong: null })
  const analyser = getMasterBus().analyser
  const block = new Float32Array(analyser.fftSize)
  for (let i = 0; i < 200; i++) {
    analyser.getFloatTimeDomainData(block)
    if (block.every((x) => Math.abs(x) < 1e-4)) return
    await sleep(20)
  }
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

function figures(name: string, ms: number[], target: string): BenchResult[] {
  return [
    { name: `${name} p50`, value: percentile(ms, 50), unit: 'ms', detail: `${ms.length} trials; ${target}` },
    { name: `${name} p99`, value: percentile(ms, 99), unit: 'ms', detail: `max of ${ms.length}: ${Math.max(...ms).toFixed(1)} ms` },
  ]
}

export async function run(): Promise<BenchResult[]> {
  await getAudioContext().resume()
  startPlayerService()
  const store = usePlayerStore.getState()
  store.setVolume(100)
  store.setCrossfade(0)

  // Warm-up: loads the deck module, the media element path and the decoder once.
  store.playSong(await toneSong(LOUD))
  await soundAbove(LOUD / 2)
  await silence()

  const cold: number[] = []
  for (let i = 0; i < TRIALS; i++) {
    const song = await toneSong(LOUD)
    await silence()
    const t0 = performance.now()
    usePlayerStore.getState().playSong(song)
    cold.push((await soundAbove(LOUD / 2)) - t0)
  }

  const preloaded: number[] = []
  for (let i = 0; i < TRIALS; i++) {
    const [current, next] = [await toneSong(QUIET), await toneSong(LOUD)]
    await silence()
    usePlayerStore.getState().playSong(current)
    usePlayerStore.getState().addToQueue(next)
    await soundAbove(QUIET / 2)
    // The deck decodes the next item once the current one has downloaded.
    await sleep(1500)
    const t0 = performance.now()
    usePlayerStore.getState().next()
    preloaded.push((await soundAbove(LOUD / 2)) - t0)
  }
  await silence()

  // The floor on this machine: a decoded buffer started at once straight into the bus, with no
  // player in between. What the audio device's callback period costs every player.
  const floor: number[] = []
  for (let i = 0; i < TRIALS; i++) {
    await silence()
    const ctx = getAudioContext()
    const buffer = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate)
    buffer.getChannelData(0).fill(LOUD)
    const source = ctx.createBufferSource()
    source.buffer = buffer
    source.connect(getMasterBus().input)
    const t0 = performance.now()
    source.start(ctx.currentTime)
    floor.push((await soundAbove(LOUD / 2)) - t0)
    source.stop()
    source.disconnect()
  }

  // CUBE Radio: a first start with nothing loaded (a fresh station, the renderer not yet imported);
  // one after the Stream page warmed it (what the page does when it opens) and the listener took a
  // second to press Play; then restarts, with the piece on air already rendered.
  const startToSound = async (station: StationPlayer) => {
    const t0 = performance.now()
    const playing = new Promise<number>((resolve) => {
      const off = station.subscribe((s) => {
        if (s.status === 'playing') {
          resolve(performance.now())
          queueMicrotask(() => off())
        }
      })
    })
    await station.start()
    return (await playing) - t0 + 50
  }
  const coldStation = new StationPlayer()
  const radioCold = await startToSound(coldStation)
  coldStation.stop()
  const warmStation = new StationPlayer()
  warmStation.warm()
  await new Promise((r) => setTimeout(r, 1000))
  const radioWarm = await startToSound(warmStation)
  const radio: number[] = []
  for (let i = 0; i < 2; i++) {
    warmStation.stop()
    radio.push(await startToSound(warmStation))
  }
  warmStation.stop()

  return [
    ...figures('Play a song (streamed, not preloaded)', cold, 'target < 150 ms'),
    ...figures('Next, the next item preloaded', preloaded, 'target < 20 ms'),
    ...figures('Floor: a buffer started at once into the bus', floor, 'no player: the device and graph alone'),
    {
      name: 'CUBE Radio, Play to sound, first start, nothing loaded',
      value: radioCold,
      unit: 'ms',
      detail: 'target < 1000 ms; composes the piece and renders its first 3 s (plus a 1 s pre-roll)',
    },
    {
      name: 'CUBE Radio, Play to sound, first start, page open 1 s',
      value: radioWarm,
      unit: 'ms',
      detail: 'target < 1000 ms; the page loaded the renderer and composed the piece; renders its first 3 s',
    },
    {
      name: 'CUBE Radio, Play to sound, restarted',
      value: Math.max(...radio),
      unit: 'ms',
      detail: `worst of ${radio.length}; what is on air is already rendered`,
    },
  ]
}
