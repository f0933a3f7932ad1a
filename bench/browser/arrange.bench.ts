/**
 * The studio arrangement:
 *
 *   (a) export of an arranged project, 16 tracks × 40 clips over 5 minutes (loops, trims, fades,
 *       clip gain), through the app's export (src/engine/offline-mix.ts renderMix: each track's
 *       clips played by the live graph's scheduler in a native offline context, strips in workers,
 *       master bus), in times real time;
 *   (b) baseline, same run: the same project flattened to 16 plain 5-minute tracks (no clips);
 *       target: (a) within 1.3x of (b);
 *   (c) the longest main-thread task while a clip is dragged across a 200-clip timeline (the
 *       Timeline component, React, as the studio mounts it; 120 pointer moves, one per frame).
 *       A task = the pointer handler plus that frame's callbacks, React's render and the frame's
 *       style and layout (frameTasks below). No frame of the drag shows as a long animation frame
 *       (over 50 ms) either. Baseline: the same measure on idle frames. Target: under 16 ms.
 */
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { putMixerAudio } from '../../src/engine/mixer-audio.ts'
import { MASTER_DEFAULTS, createTrack, type MixerState, type MixerTrack } from '../../src/engine/mixer-model.ts'
import { renderMix } from '../../src/engine/offline-mix.ts'
import { normaliseClip, type Clip } from '../../src/engine/arrangement/clip.ts'
import { useMixerStore } from '../../src/domain/studio/mixer-store.ts'
import { Timeline } from '../../src/features/studio/timeline/Timeline.tsx'
import type { BenchResult } from '../types.ts'
import { noiseChannel } from './noise.ts'

const SR = 48000
const TRACKS = 16
const CLIPS = 40
const SECONDS = 300
const SOURCE_SECONDS = 12
const UI_ONLY = false

/** 40 clips per track filling 5 minutes: every other one a 2 s loop repeated, the others trimmed; all faded. */
function arrangedTracks(audioId: string): MixerTrack[] {
  const slot = SECONDS / CLIPS
  return Array.from({ length: TRACKS }, (_, i) => {
    const t = createTrack({ id: `t${i}`, name: `Track ${i + 1}`, type: 'main', audioId, duration: SOURCE_SECONDS })
    t.pan = Math.round(-40 + (80 * i) / (TRACKS - 1))
    const clips: Clip[] = Array.from({ length: CLIPS }, (_, k) => {
      const looped = k % 2 === 0
      return normaliseClip(
        looped
          ? {
              id: `c${i}-${k}`,
              start: k * slot,
              sourceStart: 1 + (k % 5),
              sourceEnd: 3 + (k % 5),
              length: slot,
              gain: 0.8,
              fadeIn: 0.05,
              fadeOut: 0.2,
            }
          : {
              id: `c${i}-${k}`,
              start: k * slot + 0.01 * i,
              sourceStart: 0.5,
              sourceEnd: 0.5 + slot - 0.25,
              length: slot - 0.25,
              gain: 1.2,
              fadeIn: 0.3,
              fadeOut: 0.3,
            },
        SOURCE_SECONDS,
      )
    })
    return { ...t, clips }
  })
}

/** The same clips back to back with no fades: what is left of (a)'s cost is the clips themselves. */
function gaplessTracks(audioId: string): MixerTrack[] {
  return arrangedTracks(audioId).map((t) => ({
    ...t,
    clips: t.clips!.map((c, k) =>
      normaliseClip(
        {
          ...c,
          start: k * (SECONDS / CLIPS),
          length: SECONDS / CLIPS,
          fadeIn: 0,
          fadeOut: 0,
          sourceEnd: c.sourceStart + Math.min(SECONDS / CLIPS, SOURCE_SECONDS - c.sourceStart),
        },
        SOURCE_SECONDS,
      ),
    ),
  }))
}

function flatTracks(audioId: string): MixerTrack[] {
  return Array.from({ length: TRACKS }, (_, i) => {
    const t = createTrack({ id: `f${i}`, name: `Flat ${i + 1}`, type: 'main', audioId, duration: SECONDS })
    t.pan = Math.round(-40 + (80 * i) / (TRACKS - 1))
    return t
  })
}

async function timedRender(state: MixerState): Promise<number> {
  const t0 = performance.now()
  await renderMix(state, { sampleRate: SR })
  return (performance.now() - t0) / 1000
}

const frame = () => new Promise<number>((r) => requestAnimationFrame(r))

/**
 * Main-thread work per frame, optionally moving the pointer first: the pointer handler, then what
 * runs between an animation-frame callback registered before the move and one registered after it
 * (the timeline's preview callback, React's render of the lane in its microtasks, the playhead
 * loop), then the style and layout that frame needs (forced and timed in the last callback).
 */
async function frameTasks(
  steps: number,
  move?: (i: number) => number,
  watch?: HTMLElement,
): Promise<{ longest: number; median: number; worst: string; rendered: number }> {
  const tasks: number[] = []
  // Frames whose last callback already sees the dragged clip at a new place: proof that React's render is inside the measure.
  let rendered = 0
  let lastLeft = watch?.style.left
  for (let i = 0; i < steps; i++) {
    let first = 0
    requestAnimationFrame(() => (first = performance.now()))
    let handler = 0
    if (move) {
      const t0 = performance.now()
      window.dispatchEvent(new PointerEvent('pointermove', { clientX: move(i), clientY: 100, bubbles: true }))
      handler = performance.now() - t0
    }
    const work = await new Promise<number>((r) =>
      requestAnimationFrame(() => {
        const callbacks = performance.now() - first
        if (watch && watch.style.left !== lastLeft) {
          rendered++
          lastLeft = watch.style.left
        }
        const l0 = performance.now()
        void document.body.getBoundingClientRect()
        r(callbacks + performance.now() - l0)
      }),
    )
    tasks.push(handler + work)
  }
  const worst = tasks
    .map((t, i) => [t, i] as const)
    .sort((a, b) => b[0] - a[0])
    .slice(0, 3)
    .map(([t, i]) => `#${i} ${t.toFixed(1)}`)
    .join(', ')
  tasks.sort((a, b) => a - b)
  return { longest: tasks.at(-1) ?? 0, median: tasks[Math.floor(tasks.length / 2)] ?? 0, worst, rendered }
}

async function dragBench(): Promise<BenchResult[]> {
  const audioId = 'arrange-ui'
  putMixerAudio({ id: audioId, sampleRate: SR, channels: [noiseChannel(SOURCE_SECONDS * SR, 0x1234567, 0.2)] })
  // 200 clips: 5 lanes of 40.
  const tracks = arrangedTracks(audioId).slice(0, 5)
  useMixerStore.getState().load({ tracks, master: { ...MASTER_DEFAULTS }, tempo: 120 }, null)
  const host = document.createElement('div')
  host.style.width = '1200px'
  document.body.appendChild(host)
  const root = createRoot(host)
  root.render(createElement(Timeline, { onSeek: () => {} }))
  // Let every clip's waveform arrive and draw (peaks come from a worker) before measuring.
  for (let i = 0; i < 60; i++) await frame()
  const clips = host.querySelectorAll<HTMLElement>('[data-testid="clip"]')
  const target = clips[3]!
  const box = target.getBoundingClientRect()
  const idle = await frameTasks(60)
  target.dispatchEvent(new PointerEvent('pointerdown', { clientX: box.left + 5, clientY: box.top + 5, button: 0, bubbles: true }))
  const drag = await frameTasks(120, (i) => box.left + 5 + i * 8, target)
  window.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }))
  for (let i = 0; i < 5; i++) await frame()
  const moved = useMixerStore.getState().tracks[0]!.clips!.find((c) => c.id === target.dataset.clipId)
  root.unmount()
  host.remove()
  return [
    {
      name: 'drag: longest task (200 clips)',
      value: drag.longest,
      unit: 'ms',
      detail:
        `median ${drag.median.toFixed(2)} ms over 120 pointer moves (${drag.rendered} of them showed the clip moved ` +
        `within the measured frame), worst ${drag.worst}; target under 16 ms; clip now at ${moved?.start.toFixed(2)} ` +
        `s`,
    },
    {
      name: 'idle frames: longest task (baseline)',
      value: idle.longest,
      unit: 'ms',
      detail: `median ${idle.median.toFixed(2)} ms over 60 frames`,
    },
  ]
}

export async function run(): Promise<BenchResult[]> {
  const ui = await dragBench()
  if (UI_ONLY) return ui
  putMixerAudio({
    id: 'arrange-src',
    sampleRate: SR,
    channels: [noiseChannel(SOURCE_SECONDS * SR, 0x9e3779b9, 0.25), noiseChannel(SOURCE_SECONDS * SR, 0x7f4a7c15, 0.25)],
  })
  putMixerAudio({
    id: 'arrange-flat',
    sampleRate: SR,
    channels: [noiseChannel(SECONDS * SR, 0x9e3779b9, 0.25), noiseChannel(SECONDS * SR, 0x7f4a7c15, 0.25)],
  })
  const arranged: MixerState = { tracks: arrangedTracks('arrange-src'), master: { ...MASTER_DEFAULTS } }
  const flat: MixerState = { tracks: flatTracks('arrange-flat'), master: { ...MASTER_DEFAULTS } }
  // Warm up the workers and worklets once so neither figure pays for first use.
  await renderMix(
    {
      tracks: flatTracks('arrange-src')
        .slice(0, 2)
        .map((t) => ({ ...t, duration: SOURCE_SECONDS })),
      master: { ...MASTER_DEFAULTS },
    },
    { sampleRate: SR },
  )
  const flatSeconds = await timedRender(flat)
  const arrangedSeconds = await timedRender(arranged)
  const gaplessSeconds = await timedRender({ tracks: gaplessTracks('arrange-src'), master: { ...MASTER_DEFAULTS } })
  const flatAgain = await timedRender(flat)
  const baseline = (flatSeconds + flatAgain) / 2
  return [
    {
      name: '(a) export, 16 tracks x 40 clips, 5 min',
      value: SECONDS / arrangedSeconds,
      unit: 'x real time',
      detail: `${arrangedSeconds.toFixed(1)} s`,
    },
    {
      name: '(b) export, same flattened to 16 plain tracks',
      value: SECONDS / baseline,
      unit: 'x real time',
      detail: `${flatSeconds.toFixed(1)} s and ${flatAgain.toFixed(1)} s, before and after (a)`,
    },
    { name: '(a) / (b) time ratio', value: arrangedSeconds / baseline, unit: 'x', detail: 'target: at most 1.3' },
    {
      name: '(a2) same clips back to back, no fades',
      value: SECONDS / gaplessSeconds,
      unit: 'x real time',
      detail: `${gaplessSeconds.toFixed(1)} s; ratio to (b) ${(gaplessSeconds / baseline).toFixed(2)}`,
    },
    ...ui,
  ]
}
