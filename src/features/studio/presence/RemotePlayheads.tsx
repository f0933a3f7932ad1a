import { useEffect, useRef } from 'react'
import { useLiveSessionStore } from '../../../domain/studio/live-session-store.ts'
import { peerPosition } from '../../../domain/studio/presence.ts'
import { PeerTag } from './PeerTag.tsx'

/**
 * The other creators' playheads over the timeline, each a line in their colour with their name on
 * top. A playing one moves on from its last report every frame (reports come four times a second),
 * by transform, without React renders.
 */
export function RemotePlayheads({ zoom }: { zoom: number }) {
  const peers = useLiveSessionStore((s) => s.peers)
  const lines = useRef(new Map<number, HTMLDivElement>())
  const shown = peers.filter((p) => p.playhead)

  useEffect(() => {
    let raf = 0
    const tick = () => {
      const now = performance.now()
      for (const p of useLiveSessionStore.getState().peers) {
        const el = lines.current.get(p.clientId)
        const at = peerPosition(p, now)
        if (el && at !== null) el.style.transform = `translateX(${at * zoom}px)`
      }
      raf = requestAnimationFrame(tick)
    }
    raf = requestAnimationFrame(tick)
    return () => cancelAnimationFrame(raf)
  }, [zoom])

  return (
    <>
      {shown.map((p) => (
        <div
          key={p.clientId}
          ref={(el) => {
            if (el) lines.current.set(p.clientId, el)
            else lines.current.delete(p.clientId)
          }}
          aria-hidden
          data-testid="peer-playhead"
          data-peer={p.name}
          className="pointer-events-none absolute inset-y-0 left-0 w-0.5"
          style={{ background: p.colour, transform: `translateX(${(p.playhead?.seconds ?? 0) * zoom}px)` }}
        >
          <span className="absolute left-1 top-0">
            <PeerTag peer={p} />
          </span>
        </div>
      ))}
    </>
  )
}
