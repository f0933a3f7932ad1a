import { useMemo } from 'react'
import { useBackend } from '../session/backend-context.ts'
import { copyShareLink, shareItem, type ShareItem } from './share-item.ts'
import type { SharePlatform } from '../../backend/sharing.ts'
import type { SlugOf } from './song-share.ts'

/** `shareItem` and `copyShareLink` making their links (and a song's page name) through the injected backend. */
export function useShareActions() {
  const { sharing, publishing } = useBackend()
  return useMemo(() => {
    const deps = { create: sharing.createShareLink }
    return {
      share: (item: ShareItem, platform: SharePlatform) => shareItem(item, platform, deps),
      copy: (item: ShareItem, clipboard?: (text: string) => Promise<void>) => copyShareLink(item, clipboard, deps),
      /** A published song's page name, for `songShareItem`. */
      slugOf: (async (id) => (await publishing.fetchSongById(id))?.slug ?? null) satisfies SlugOf,
    }
  }, [sharing, publishing])
}
