import { useMemo } from 'react'
import { useBackend } from '../session/backend-context.ts'
import { copyShareLink, shareItem, type ShareItem } from './share-item.ts'
import type { SharePlatform } from '../../backend/sharing.ts'

/** `shareItem` and `copyShareLink` making their links through the injected backend. */
export function useShareActions() {
  const { sharing } = useBackend()
  return useMemo(() => {
    const deps = { create: sharing.createShareLink }
    return {
      share: (item: ShareItem, platform: SharePlatform) => shareItem(item, platform, deps),
      copy: (item: ShareItem, clipboard?: (text: string) => Promise<void>) => copyShareLink(item, clipboard, deps),
    }
  }, [sharing])
}
