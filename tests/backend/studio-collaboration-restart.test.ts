import { rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import { startLocalServer } from '../../supabase/local/core/server.ts'
import { createMixerStore } from '../../src/domain/studio/mixer-store.ts'
import { joinSharedProject } from '../../src/domain/studio/shared-project.ts'
import { migratedSnapshot, signedInClient, signUp, sql, startTestServer, type TestUser } from './support/local-backend.ts'
import { storageDirFor } from '../../supabase/local/core/options.ts'
import { custodialKeyFileFor, jwtSecretFileFor } from '../../supabase/local/core/local-keys.ts'

// A shared project's stored edits outlive the server: what creators edited live, stored as they
// went, is what a creator who joins after a restart on the same data folder starts from.

const PROJECT = { id: '99999999-9999-4999-8999-999999999999', name: 'Survivor' }

describe('a shared project across a server restart', () => {
  it('every stored edit is there after the restart: a creator who joins then has the mix as it was', async () => {
    const first = await startTestServer({ persistent: true, pgliteSnapshot: await migratedSnapshot() })
    const dataDir = first.dataDir!
    let owner: TestUser
    let editor: TestUser
    let want: string
    try {
      owner = await signUp(first, 'restart-owner@example.com', 'owner-pass', 'restartowner')
      editor = await signUp(first, 'restart-editor@example.com', 'editor-pass', 'restarteditor')
      await sql(first, 'insert into public.studio_projects (id, user_id, name) values ($1, $2, $3)', [PROJECT.id, owner.id, PROJECT.name])
      await sql(first, "insert into public.project_members (project_id, user_id, role) values ($1, $2, 'editor')", [PROJECT.id, editor.id])
      const db = await signedInClient(first, owner)
      const store = createMixerStore(new Y.Doc())
      const session = joinSharedProject({ db, project: PROJECT, part: 'owner', name: 'restartowner', store, audio: null })
      await session.ready
      const kick = store.getState().addTrack({ name: 'Kick', type: 'main', audioId: 'kick', duration: 2 })
      store.getState().setControl(kick.id, 'volume', 33)
      store.getState().renameTrack(kick.id, 'Big Kick')
      store.getState().setTempo(97)
      want = JSON.stringify({ tracks: store.getState().tracks, tempo: store.getState().tempo })
      // Leaving stores what is still waiting, as closing the studio does.
      await session.leave()
      expect((await sql(first, 'select 1 from public.project_updates where project_id = $1', [PROJECT.id])).length).toBeGreaterThan(0)
    } finally {
      await first.server.close()
      first.server.closeAllConnections()
      await first.db.close()
    }

    const again = await startLocalServer({ emailConfirm: false, dataDir, port: 0, bcryptRounds: 4 })
    try {
      const db = await signedInClient(again, editor)
      const theirs = createMixerStore(new Y.Doc())
      const session = joinSharedProject({ db, project: PROJECT, part: 'editor', name: 'restarteditor', store: theirs, audio: null })
      await session.ready
      expect(JSON.stringify({ tracks: theirs.getState().tracks, tempo: theirs.getState().tempo })).toBe(want)
      expect(theirs.getState().tracks.map((t) => [t.name, t.volume])).toEqual([['Big Kick', 33]])
      await session.leave()
    } finally {
      await again.close()
      for (const path of [dataDir, storageDirFor(dataDir)]) await rm(path, { recursive: true, force: true })
      for (const file of [jwtSecretFileFor(dataDir), custodialKeyFileFor(dataDir)]) await rm(file, { force: true })
    }
  }, 60_000)
})
