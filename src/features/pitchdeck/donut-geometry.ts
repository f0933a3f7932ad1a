// Arc maths for the hand-drawn tokenomics donut: angles start at 12 o'clock and run clockwise.

export interface DonutSegment {
  /** SVG path of the ring slice. */
  path: string
  startAngle: number
  endAngle: number
  /** Middle of the slice, halfway through the ring's thickness: where its label goes. */
  labelX: number
  labelY: number
}

const point = (cx: number, cy: number, r: number, angle: number) => ({
  x: cx + r * Math.sin(angle),
  y: cy - r * Math.cos(angle),
})

const f = (n: number) => Number(n.toFixed(3))

/** Slices proportional to `values` (any positive scale) of a ring between `inner` and `outer` radius. */
export function donutSegments(values: readonly number[], cx: number, cy: number, outer: number, inner: number): DonutSegment[] {
  const total = values.reduce((a, b) => a + b, 0)
  if (!(total > 0) || values.some((v) => !(v >= 0))) throw new Error('Donut values must be non-negative with a positive total')
  let start = 0
  return values.map((v) => {
    const sweep = (v / total) * 2 * Math.PI
    // A full circle cannot be one arc: stop a hair short so the path stays drawable.
    const end = start + Math.min(sweep, 2 * Math.PI - 1e-4)
    const large = end - start > Math.PI ? 1 : 0
    const o0 = point(cx, cy, outer, start)
    const o1 = point(cx, cy, outer, end)
    const i1 = point(cx, cy, inner, end)
    const i0 = point(cx, cy, inner, start)
    const path = [
      `M ${f(o0.x)} ${f(o0.y)}`,
      `A ${outer} ${outer} 0 ${large} 1 ${f(o1.x)} ${f(o1.y)}`,
      `L ${f(i1.x)} ${f(i1.y)}`,
      `A ${inner} ${inner} 0 ${large} 0 ${f(i0.x)} ${f(i0.y)}`,
      'Z',
    ].join(' ')
    const mid = point(cx, cy, (outer + inner) / 2, start + sweep / 2)
    const segment = { path, startAngle: start, endAngle: start + sweep, labelX: f(mid.x), labelY: f(mid.y) }
    start += sweep
    return segment
  })
}
