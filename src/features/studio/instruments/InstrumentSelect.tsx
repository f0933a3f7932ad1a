import { GM_DRUM_KITS, GM_FAMILIES, GM_PROGRAM_NAMES } from '../../../config/gm-programs.ts'

/** 'p:40' (GM program 41, Violin) or 'd:0' (the standard kit on channel 10). */
export const instrumentValue = (program: number, drums: boolean): string => `${drums ? 'd' : 'p'}:${program}`

export function parseInstrumentValue(value: string): { program: number; drums: boolean } {
  const [kind, n] = value.split(':')
  const program = Math.max(0, Math.min(127, Math.round(Number(n) || 0)))
  return { program, drums: kind === 'd' }
}

/** Every General MIDI instrument by family, and the drum kits. */
export function InstrumentSelect({
  value,
  onChange,
  label,
  className = '',
}: {
  value: string
  onChange: (value: string) => void
  label: string
  className?: string
}) {
  return (
    <select
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      className={`rounded border border-line bg-bg px-2 py-1.5 text-sm text-fg ${className}`}
    >
      {GM_FAMILIES.map((family, f) => (
        <optgroup key={family} label={family}>
          {GM_PROGRAM_NAMES.slice(f * 8, f * 8 + 8).map((name, i) => (
            <option key={name} value={instrumentValue(f * 8 + i, false)}>
              {name}
            </option>
          ))}
        </optgroup>
      ))}
      <optgroup label="Drum kits">
        {GM_DRUM_KITS.map((kit) => (
          <option key={kit.program} value={instrumentValue(kit.program, true)}>
            {kit.name}
          </option>
        ))}
      </optgroup>
    </select>
  )
}
