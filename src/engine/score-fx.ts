/**
 * One-shot effects for the Sound Library, rendered offline with Tone.js from seeded noise and
 * oscillators (deterministic, no downloads).
 *
 *   renderRiser(seconds, sampleRate?): Promise<AudioBuffer>   filtered-noise sweep up plus a rising tone
 */
import { createRng } from '../../workers/composer/prng.ts'

export async function renderRiser(seconds: number, sampleRate = 44100): Promise<AudioBuffer> {
  const Tone = await import('tone')
  const native = new OfflineAudioContext(2, Math.ceil(seconds * sampleRate), sampleRate)
  const context = new Tone.OfflineContext(native as unknown as ConstructorParameters<typeof Tone.OfflineContext>[0])
  const ctx = { context }
  const rng = createRng(0x5eed)
  const noise = native.createBuffer(2, native.length, sampleRate)
  for (let c = 0; c < 2; c++) {
    const ch = noise.getChannelData(c)
    for (let i = 0; i < ch.length; i++) ch[i] = rng.next() * 2 - 1
  }
  const end = seconds - 0.05
  const filter = new Tone.Filter({ ...ctx, type: 'bandpass', Q: 4, frequency: 200 })
  filter.frequency.setValueAtTime(200, 0)
  filter.frequency.exponentialRampToValueAtTime(9000, end)
  const level = new Tone.Gain({ ...ctx, gain: 0 })
  level.gain.setValueAtTime(0.001, 0)
  level.gain.exponentialRampToValueAtTime(1, end)
  level.gain.linearRampToValueAtTime(0, seconds)
  const src = new Tone.ToneBufferSource({ ...ctx, url: new Tone.ToneAudioBuffer(noise) })
  const osc = new Tone.Oscillator({ ...ctx, type: 'sawtooth', frequency: 110, volume: -18 })
  osc.frequency.setValueAtTime(110, 0)
  osc.frequency.exponentialRampToValueAtTime(880, end)
  src.chain(filter, level)
  osc.connect(level)
  level.connect(context.destination)
  src.start(0)
  osc.start(0).stop(seconds)
  const buffer = (await context.render(false)).get()
  if (!buffer) throw new Error('Offline render produced no audio')
  return buffer
}
