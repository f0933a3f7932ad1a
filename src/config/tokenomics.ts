// The token's figures, stated once (the pitch deck said 40/25/20/15 and the
// whitepaper 60/15/25). The pitch deck's chart and the whitepaper's text both read them from here.

export interface TokenShare {
  /** English label (pitch deck). */
  label: string
  /** Chinese name (whitepaper). */
  labelZh: string
  percent: number
  colour: string
  purpose: string
}

export const TOTAL_SUPPLY = 1_000_000_000

export const TOKEN_DISTRIBUTION: readonly TokenShare[] = [
  {
    label: 'Community',
    labelZh: '社区与生态激励',
    percent: 60,
    colour: 'var(--theme-primary)',
    purpose: 'listening rewards, creator incentives, remix contests and community events, released on a declining curve',
  },
  {
    label: 'Team',
    labelZh: '核心团队',
    percent: 15,
    colour: 'var(--theme-secondary)',
    purpose: '12-month lock, then released linearly over 36 months',
  },
  {
    label: 'Reserve & liquidity',
    labelZh: '基金会储备与流动性',
    percent: 25,
    colour: 'var(--theme-accent)',
    purpose: 'exchange liquidity, partnerships, security audits and the ecosystem fund, spent only by governance decision',
  },
]

/** "60% / 15% / 25%" as the whitepaper writes it. */
export const distributionSlashes = () => TOKEN_DISTRIBUTION.map((s) => `${s.percent}%`).join(' / ')
export const shareOf = (labelZh: string) => TOKEN_DISTRIBUTION.find((s) => s.labelZh === labelZh)!.percent
