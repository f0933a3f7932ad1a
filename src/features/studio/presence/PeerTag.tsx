import type { Peer } from '../../../domain/studio/presence.ts'

/** A peer's name tag: their colour behind their name. */
export function PeerTag({ peer, testId }: { peer: Pick<Peer, 'name' | 'colour'>; testId?: string }) {
  return (
    <span
      className="pointer-events-none rounded px-1 text-[10px] font-semibold leading-4 text-bg"
      style={{ background: peer.colour }}
      data-testid={testId}
    >
      {peer.name}
    </span>
  )
}
