import { donutSegments } from './donut-geometry.ts'
import type { TokenShare } from './deck-figures.ts'

const SIZE = 240
const C = SIZE / 2

/** The token distribution as a donut with labelled slices and a matching legend. */
export function TokenomicsChart({ shares }: { shares: readonly TokenShare[] }) {
  const segments = donutSegments(
    shares.map((s) => s.percent),
    C,
    C,
    110,
    62,
  )
  const description = `Token distribution: ${shares.map((s) => `${s.label} ${s.percent}%`).join(', ')}`
  return (
    <figure className="flex flex-col items-center gap-6 md:flex-row md:gap-10">
      <svg
        viewBox={`0 0 ${SIZE} ${SIZE}`}
        role="img"
        aria-label={description}
        data-testid="tokenomics-chart"
        className="h-56 w-56 shrink-0 md:h-72 md:w-72"
      >
        {segments.map((seg, i) => (
          <path
            key={shares[i]!.label}
            d={seg.path}
            fill={shares[i]!.colour}
            stroke="var(--theme-background)"
            strokeWidth={2}
            data-share={shares[i]!.percent}
          />
        ))}
        {segments.map((seg, i) => (
          <text
            key={`${shares[i]!.label}-label`}
            x={seg.labelX}
            y={seg.labelY}
            textAnchor="middle"
            dominantBaseline="central"
            fontSize={15}
            fontWeight={800}
            fill="var(--theme-background)"
          >
            {shares[i]!.percent}%
          </text>
        ))}
        <text x={C} y={C - 8} textAnchor="middle" fontSize={22} fontWeight={900} fill="var(--theme-text)">
          CUBE
        </text>
        <text x={C} y={C + 14} textAnchor="middle" fontSize={11} fill="var(--theme-muted)">
          distribution
        </text>
      </svg>
      <figcaption className="w-full max-w-sm">
        <ul className="flex flex-col gap-3" aria-label="Token distribution legend">
          {shares.map((s) => (
            <li key={s.label} className="flex items-start gap-3">
              <span aria-hidden="true" className="mt-1 h-4 w-4 shrink-0 rounded-sm" style={{ background: s.colour }} />
              <span>
                <span className="font-bold text-fg">
                  {s.label} {s.percent}%
                </span>
                <span className="block text-sm text-muted">{s.purpose}</span>
              </span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  )
}
