import { describe, expect, it } from 'vitest'
import { STRIP_PARAM_DESCRIPTORS, STRIP_PARAM_NAMES } from '../../audio-worklets/channel-strip-params.ts'
import { STRIP_DEFAULTS, STRIP_NEUTRAL, resolveStripParams } from './channel-strip.ts'
import { CONTROL_RANGES, EFFECT_NAMES, TRACK_CONTROLS, TRACK_DEFAULTS, clampControl, createTrack } from './mixer-model.ts'

// The worklet's parameter descriptors are the one source of ranges and neutral values; the mixer
// model and the engine's strip settings must say exactly the same.
const descriptor = (name: string) => STRIP_PARAM_DESCRIPTORS.find((d) => d.name === name)!

describe('mixer ranges and defaults come from the channel strip descriptors', () => {
  it('every mixer control is a strip parameter, and every strip parameter but enabled is a mixer control', () => {
    expect([...TRACK_CONTROLS].sort()).toEqual(STRIP_PARAM_NAMES.filter((n) => n !== 'enabled').sort())
    expect(Object.keys(CONTROL_RANGES).sort()).toEqual([...TRACK_CONTROLS].sort())
  })

  it('CONTROL_RANGES equal the descriptors’ min/max', () => {
    for (const c of TRACK_CONTROLS) {
      expect(CONTROL_RANGES[c], c).toEqual({ min: descriptor(c).minValue, max: descriptor(c).maxValue })
      // Clamping in the mixer and in the strip agree at and beyond both ends.
      for (const v of [-1e9, descriptor(c).minValue, descriptor(c).maxValue, 1e9]) {
        expect(clampControl(c, v), `${c} ${v}`).toBe(resolveStripParams({ [c]: v })[c])
      }
    }
  })

  it('STRIP_NEUTRAL is the descriptors’ defaults', () => {
    expect(STRIP_NEUTRAL).toEqual(Object.fromEntries(STRIP_PARAM_DESCRIPTORS.map((d) => [d.name, d.defaultValue])))
  })

  it('a new track’s neutral controls are the descriptors’ defaults, and STRIP_DEFAULTS is TRACK_DEFAULTS in strip units', () => {
    expect(TRACK_DEFAULTS.pan).toBe(descriptor('pan').defaultValue)
    for (const e of EFFECT_NAMES) expect(TRACK_DEFAULTS.effects[e], e).toBe(descriptor(e).defaultValue)
    expect(TRACK_DEFAULTS.enabled ? 1 : 0).toBe(descriptor('enabled').defaultValue)
    expect(STRIP_DEFAULTS).toEqual({
      volume: TRACK_DEFAULTS.volume,
      pan: TRACK_DEFAULTS.pan,
      reverb: TRACK_DEFAULTS.reverb,
      ...TRACK_DEFAULTS.effects,
      enabled: TRACK_DEFAULTS.enabled ? 1 : 0,
    })
    const track = createTrack({ id: 't', name: 'T', type: 'main', audioId: 'a', duration: 1 })
    for (const c of ['volume', 'pan', 'reverb'] as const) expect(track[c], c).toBe(STRIP_DEFAULTS[c])
    for (const e of EFFECT_NAMES) expect(track.effects[e], e).toBe(STRIP_DEFAULTS[e])
    // Every default lies inside its range.
    for (const name of STRIP_PARAM_NAMES) {
      expect(STRIP_DEFAULTS[name]).toBeGreaterThanOrEqual(descriptor(name).minValue)
      expect(STRIP_DEFAULTS[name]).toBeLessThanOrEqual(descriptor(name).maxValue)
    }
  })
})
