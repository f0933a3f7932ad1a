import '../../../styles/index.css'
import { describe, expect, it, vi } from 'vitest'
import { render, settle } from '../../../../tests/component/render.tsx'
import { normaliseClip } from '../../../engine/arrangement/clip.ts'
import { ClipBlock } from './ClipBlock.tsx'

// An instrument track's clip on the timeline is a MIDI clip: it shows its notes where
// the clip plays them, repeated where it loops.

const inked = (canvas: HTMLCanvasElement, x: number) => {
  const g = canvas.getContext('2d')!
  const column = g.getImageData(Math.round(x), 0, 1, canvas.height).data
  for (let i = 3; i < column.length; i += 4) if (column[i]! > 0) return true
  return false
}

describe('ClipBlock of an instrument track', () => {
  it('draws each note over the beats it plays, and again in each repetition of a loop', async () => {
    // 120 BPM: a bar is 2 s. One note on beat 1 (0–0.5 s) of a one-bar region, looped to two bars.
    const clip = normaliseClip({ id: 'c', start: 0, sourceStart: 0, sourceEnd: 2, length: 4 }, 4)
    const instrument = { program: 0, drums: false, notes: [{ id: 'n', key: 60, start: 0, length: 1, velocity: 100 }] }
    const el = render(
      <div style={{ position: 'relative', height: 52, width: 800 }}>
        <ClipBlock
          clip={clip}
          audioId="none"
          duration={4}
          notes={{ instrument, bpm: 120 }}
          zoom={100}
          trackName="Keys"
          selected={false}
          muted={false}
          onPointerDown={vi.fn()}
          onKeyDown={vi.fn()}
          onFocus={vi.fn()}
        />
      </div>,
    )
    await settle()
    const canvas = el.querySelector('canvas')!
    expect(canvas.width).toBe(400)
    // 100 px per second: the note covers 0–50 px and 200–250 px (the loop's second pass), nothing between.
    expect(inked(canvas, 25)).toBe(true)
    expect(inked(canvas, 225)).toBe(true)
    expect(inked(canvas, 120)).toBe(false)
    expect(inked(canvas, 320)).toBe(false)
  })
})
