import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { Icon, type IconName } from '../../ui/Icon.tsx'
import { TokenomicsChart } from './TokenomicsChart.tsx'
import {
  BUSINESS_MODEL_SLIDE,
  CHAINS,
  CONTACT_MAILTO,
  EARNING_EXAMPLES,
  FEATURES,
  REVENUE_STREAMS,
  ROADMAP,
  SLIDE_TITLES,
  TOKEN_DISTRIBUTION,
} from './deck-figures.ts'

export interface SlideProps {
  goTo: (index: number) => void
}

function Card({ icon, title, children }: { icon?: IconName; title: string; children: ReactNode }) {
  return (
    <div className="panel p-5">
      {icon && <Icon name={icon} size={26} className="mb-2 text-accent" />}
      <h3 className="text-lg font-bold text-fg">{title}</h3>
      <div className="mt-1 text-sm leading-6 text-muted">{children}</div>
    </div>
  )
}

function TitleSlide() {
  return (
    <div className="flex flex-col items-center text-center">
      <div className="mb-6 flex h-24 w-24 items-center justify-center rounded-2xl border border-primary/60 neon-box" aria-hidden="true">
        <Icon name="cube" size={52} className="text-primary" />
      </div>
      <p
        className="max-w-full font-display text-4xl font-black tracking-widest break-words text-primary neon-text sm:text-6xl md:text-8xl"
        aria-hidden="true"
      >
        CUBE<span className="text-secondary">.</span>MUSIC
      </p>
      <p className="mt-6 max-w-2xl text-xl text-fg/90 md:text-2xl">The cyberpunk music platform where every listen counts.</p>
      <p className="mt-3 text-muted">Create with AI · Mix live · Remix · Mint · Earn CUBE</p>
      <p className="mt-10 text-sm uppercase tracking-[0.3em] text-secondary">Investor presentation · 2024</p>
    </div>
  )
}

function ProblemSlide() {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card icon="music" title="Artists are paid fractions of a cent">
        A stream pays an independent artist well under one cent, split through labels, distributors and aggregators, with statements months
        late and no view of how the number was reached.
      </Card>
      <Card icon="headphones" title="Listeners create value and get nothing back">
        Listening, playlists and word of mouth decide which songs break, yet all of that attention is monetised by the platform alone.
      </Card>
      <Card icon="sliders" title="Making music is still hard">
        Arranging, recording and mixing need expensive software and years of practice; most AI tools hand back one flat file you cannot
        edit.
      </Card>
      <Card icon="shuffle" title="Remix culture has no licence path">
        Remixes are taken down or circulate unlicensed; original artists earn nothing from the derivatives of their work.
      </Card>
    </div>
  )
}

function SolutionSlide() {
  return (
    <div className="flex flex-col gap-6">
      <p className="max-w-3xl text-lg text-fg/90">
        CUBE Music puts listening, creating and owning music in one browser tab, with a token that pays the people who create the value.
      </p>
      <div className="grid gap-4 md:grid-cols-3">
        <Card icon="cube" title="Listen & earn">
          Real listening time, comments and shares earn CUBE, credited by the server so rewards cannot be faked.
        </Card>
        <Card icon="sparkles" title="Create without a studio">
          AI generation from a text prompt, a live mixer and microphone recording, all in the browser.
        </Card>
        <Card icon="shield" title="Own and govern">
          Music NFTs with on-chain royalty splits, remixes that pay the original artist, and DAO voting on the rules.
        </Card>
      </div>
    </div>
  )
}

function MarketSlide() {
  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-4 md:grid-cols-3">
        <div className="panel p-5 text-center">
          <p className="font-display text-4xl font-black text-primary">$28.6B</p>
          <p className="mt-2 text-sm text-muted">global recorded-music revenue in 2023, up 10.2% year on year</p>
        </div>
        <div className="panel p-5 text-center">
          <p className="font-display text-4xl font-black text-secondary">$19.3B</p>
          <p className="mt-2 text-sm text-muted">of it from streaming, about two thirds of the total</p>
        </div>
        <div className="panel p-5 text-center">
          <p className="font-display text-4xl font-black text-accent">667M</p>
          <p className="mt-2 text-sm text-muted">paid streaming subscription accounts worldwide</p>
        </div>
      </div>
      <p className="text-xs text-muted">Source: IFPI Global Music Report 2024.</p>
      <div className="grid gap-4 md:grid-cols-3">
        <Card title="Independent creators">
          Bedroom producers and indie artists who want fair, transparent payouts and tools that do not cost a studio.
        </Card>
        <Card title="Engaged listeners">Fans who already curate playlists and share music, and would rather be rewarded for it.</Card>
        <Card title="Web3 music collectors">Collectors who want to own and trade music, with artist royalties enforced on-chain.</Card>
      </div>
    </div>
  )
}

function FeaturesSlide() {
  const icons: IconName[] = ['sparkles', 'sliders', 'cube', 'headphones', 'share', 'shuffle']
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {FEATURES.map((f, i) => (
        <li key={f.name}>
          <Card icon={icons[i]} title={f.name}>
            {f.text}
          </Card>
        </li>
      ))}
    </ul>
  )
}

function BusinessModelSlide() {
  return (
    <div className="flex flex-col gap-6">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        {REVENUE_STREAMS.map((r) => (
          <li key={r.name} className="panel p-5 text-center">
            <p className="font-display text-2xl font-black text-primary xl:text-3xl">{r.value}</p>
            <h3 className="mt-2 font-bold text-fg">{r.name}</h3>
            <p className="mt-1 text-xs text-muted">{r.detail}</p>
          </li>
        ))}
      </ul>
      <p className="max-w-3xl text-fg/85">
        Revenue grows with activity on the platform, not with ads: creators pay only when they mint or trade, power users subscribe for
        premium AI, and learners buy the production course.
      </p>
    </div>
  )
}

function TokenomicsSlide() {
  return (
    <div className="flex flex-col items-center gap-8 lg:flex-row lg:items-start lg:justify-between">
      <TokenomicsChart shares={TOKEN_DISTRIBUTION} />
      <div className="panel w-full max-w-xs p-5">
        <h3 className="font-bold text-fg">Ways to earn CUBE</h3>
        <ul className="mt-3 flex flex-col gap-2 text-sm">
          {EARNING_EXAMPLES.map((e) => (
            <li key={e.action} className="flex justify-between gap-4">
              <span className="text-muted">{e.action}</span>
              <span className="font-bold text-accent">{e.reward}</span>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-xs text-muted">Plus rewards for listening, comments and shares, credited by the server.</p>
      </div>
    </div>
  )
}

function TechnologySlide() {
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Card icon="sliders" title="Real-time audio engine">
        Web Audio with AudioWorklet DSP: every channel strip runs allocation-free on the audio thread for low-latency live mixing.
      </Card>
      <Card icon="sparkles" title="AI generation on the device">
        Prompt parsing, arrangement and synthesis run in Web Workers, producing editable stems instead of one flat file.
      </Card>
      <Card icon="shield" title="Server-side ledger">
        Postgres with row-level security; every CUBE reward and spend is one atomic transaction, so concurrent requests cannot double-pay.
      </Card>
      <Card icon="cube" title={`Multi-chain: ${CHAINS.join(' and ')}`}>
        Music NFTs and the token on {CHAINS[0]} for high-value drops and governance, and {CHAINS[1]} for cheap, frequent transfers.
      </Card>
    </div>
  )
}

function RoadmapSlide() {
  return (
    <ol className="grid gap-4 md:grid-cols-4">
      {ROADMAP.map((r) => (
        <li key={r.quarter} className="panel border-t-4 border-t-primary p-5">
          <p className="font-display text-xl font-black text-primary">{r.quarter}</p>
          <h3 className="mt-1 font-bold text-fg">{r.title}</h3>
          <ul className="mt-3 list-disc space-y-1 pl-4 text-sm text-muted">
            {r.points.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  )
}

const BUTTON = 'inline-flex items-center justify-center gap-2 rounded-md px-6 py-3 font-bold'

function JoinSlide({ goTo }: SlideProps) {
  return (
    <div className="flex flex-col items-center gap-8 text-center">
      <p className="max-w-2xl text-xl text-fg/90">
        Build the music platform that pays its creators and listeners. Start making music today, or talk to us about joining the round.
      </p>
      <div className="flex flex-wrap justify-center gap-4">
        <Link to="/app/create" className={`${BUTTON} bg-primary text-bg neon-box`}>
          Start Creating
        </Link>
        <button type="button" onClick={() => goTo(BUSINESS_MODEL_SLIDE)} className={`${BUTTON} bg-secondary text-bg`}>
          Invest Now
        </button>
        <a href={CONTACT_MAILTO} className={`${BUTTON} border border-primary text-primary`}>
          Get in Touch
        </a>
      </div>
      <div className="flex flex-wrap justify-center gap-4">
        <Link to="/app/home" className={`${BUTTON} border border-line text-fg`}>
          Launch Platform
        </Link>
        <Link to="/app/listen" className={`${BUTTON} border border-line text-fg`}>
          View Demo
        </Link>
      </div>
    </div>
  )
}

const BODIES: ((props: SlideProps) => ReactNode)[] = [
  TitleSlide,
  ProblemSlide,
  SolutionSlide,
  MarketSlide,
  FeaturesSlide,
  BusinessModelSlide,
  TokenomicsSlide,
  TechnologySlide,
  RoadmapSlide,
  JoinSlide,
]

export const SLIDES = SLIDE_TITLES.map((title, i) => ({ title, Body: BODIES[i]! }))
