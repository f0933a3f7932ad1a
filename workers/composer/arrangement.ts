import type { Section, SectionLayers, SectionName } from './score.ts'
import type { DrumKit } from './styles.ts'

const ENERGY: Record<SectionName, number> = { intro: 0.4, verse: 0.7, chorus: 1, bridge: 0.55, outro: 0.35 }
const BRIGHTNESS_SHIFT: Record<SectionName, number> = { intro: -0.12, verse: 0, chorus: 0.1, bridge: -0.05, outro: -0.15 }
const BODY_ORDER: readonly SectionName[] = ['verse', 'chorus', 'verse', 'chorus', 'bridge', 'chorus', 'verse', 'chorus', 'chorus']

function layersFor(name: SectionName, drums: DrumKit, pad: boolean): SectionLayers {
  const hasDrums = drums !== 'none'
  switch (name) {
    case 'intro':
      return { kick: false, drums: hasDrums, bass: false, chords: true, pad, melody: false }
    case 'verse':
      return { kick: hasDrums, drums: hasDrums, bass: true, chords: true, pad: false, melody: true }
    case 'chorus':
      return { kick: hasDrums, drums: hasDrums, bass: true, chords: true, pad, melody: true }
    case 'bridge':
      return { kick: false, drums: hasDrums, bass: true, chords: true, pad, melody: true }
    case 'outro':
      return { kick: false, drums: hasDrums, bass: true, chords: true, pad, melody: false }
  }
}

/**
 * Intro, then verse/chorus/bridge in a pop-song order until the sections last at least
 * `minDurationSeconds`, then an outro. Longer pieces get 8-bar sections, short ones 4-bar sections.
 */
export function planSections(barSeconds: number, minDurationSeconds: number, drums: DrumKit, pad: boolean, brightness: number): Section[] {
  const targetBars = Math.max(8, Math.ceil(minDurationSeconds / barSeconds))
  const edge = targetBars >= 24 ? 4 : 2
  const body = targetBars >= 28 ? 8 : 4
  const names: [SectionName, number][] = [['intro', edge]]
  let bars = edge + edge
  for (let i = 0; bars < targetBars; i++) {
    const name = BODY_ORDER[i % BODY_ORDER.length] as SectionName
    const len = name === 'bridge' ? Math.max(4, body / 2) : body
    names.push([name, len])
    bars += len
  }
  names.push(['outro', edge])
  let startBar = 0
  return names.map(([name, len]) => {
    const section: Section = {
      name,
      startBar,
      bars: len,
      startTime: startBar * barSeconds,
      endTime: (startBar + len) * barSeconds,
      energy: ENERGY[name],
      brightness: Math.min(1, Math.max(0.03, brightness + BRIGHTNESS_SHIFT[name])),
      layers: layersFor(name, drums, pad),
    }
    startBar += len
    return section
  })
}
