import { createContext, createElement, useContext, type ComponentType, type ReactNode } from 'react'
import type { Song } from '../lib/catalogue/song.ts'

// Features never import each other. Where one feature's screen shows another feature's widget (the
// Library's cards offer Add to Playlist and Publish, the song page shows the comment thread), the
// screen asks for the widget by name here and src/app/feature-slots.tsx supplies it. A screen
// rendered without the app (a component test) simply shows nothing in that place.

/** A widget that takes no props. */
type NoProps = object

/** Every widget one feature lends another, with the props it takes. */
export interface SlotProps {
  AddToPlaylistMenu: { song: Song }
  PublishButton: { song: Song }
  PublishedSection: NoProps
  CommentThread: { songId: string; songTitle?: string }
  /** Markers of the comments pinned to moments of the song, laid over its waveform (`duration` in s). */
  WaveformMarkers: { songId: string; duration: number; onSeek: (seconds: number) => void }
  /** A song's waveform (the player's), for a page that shows one song. */
  SongWaveform: { song: Song }
  LedgerTokenActivity: NoProps
  ListenCreditNote: { songId: string | null | undefined }
  WalletBasicsCard: { showActivity?: boolean }
  StudioProjectsSection: NoProps
  StationMiniControls: NoProps
  LandingGenerator: NoProps
  AiGenerator: NoProps
  AuthModalHost: NoProps
  PlayerBar: NoProps
  StillListeningPrompt: NoProps
  CreatorEarningsCard: NoProps
  /** The server-state layer (query cache, backend), for a widget on a page that loads without it (the landing page). */
  ServerState: { children: ReactNode }
}

export type SlotName = keyof SlotProps
export type SlotComponents = { [K in SlotName]: ComponentType<SlotProps[K]> }

const SlotsContext = createContext<Partial<SlotComponents>>({})

export function SlotsProvider({ slots, children }: { slots: Partial<SlotComponents>; children: ReactNode }) {
  return <SlotsContext.Provider value={slots}>{children}</SlotsContext.Provider>
}

/**
 * Renders the widget the app supplies for `name` with the given props (`<Slot name="CommentThread"
 * songId={id} />`), or nothing when none is supplied.
 */
export function Slot<K extends SlotName>({ name, ...props }: { name: K } & SlotProps[K]) {
  const widget = useContext(SlotsContext)[name] as ComponentType<SlotProps[K]> | undefined
  return widget ? createElement(widget, props as unknown as SlotProps[K]) : null
}
