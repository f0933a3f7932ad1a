import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as Y from 'yjs'
import {
  api,
  rpc,
  signUp,
  sql,
  startTestServer,
  signedInClient,
  supabaseClient,
  type TestServer,
  type TestUser,
} from './support/local-backend.ts'
import { createMixerStore } from '../../src/domain/studio/mixer-store.ts'
import { joinSharedProject } from '../../src/domain/studio/shared-project.ts'
import { peersOf } from '../../src/domain/studio/presence.ts'
import { readOnlyOwn, rlsContext, rlsMatrixTests, type RlsCase } from './support/rls-matrix.ts'
import {
  acceptProjectInvite,
  createProjectInvite,
  listProjectInvites,
  loadProjectUpdates,
  revokeProjectInvite,
} from '../../src/backend/project-collaboration.ts'
import { makeWav, tone } from '../e2e/fixtures/audio.ts'
import { downloadProjectAudio, projectAudioPath, uploadProjectAudio } from '../../src/backend/project-audio.ts'

// Shared studio projects as an outsider sees them: the members and the stored document updates,
// through the HTTP API with ordinary accounts (owner, editor, viewer, a stranger and a visitor).

const PROJECT = '55555555-5555-4555-8555-555555555555'
/** A small, well-formed base64 body (the server checks shape and size, the client checks content). */
const BODY = 'AAECAwQF'
const MARKED = 'bWFya2Vk'
const INVITE_TOKEN = '66666666-6666-4666-8666-666666666666'

let server: TestServer
let owner: TestUser
let other: TestUser
let editor: TestUser
let viewer: TestUser
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sql<T>(server, text, params)
const exists = async (text: string, params: unknown[]) => (await q(text, params)).length > 0
const ctx = () => rlsContext(server, owner, other)
const rows = (token: string) => api(server, `/rest/v1/project_updates?project_id=eq.${PROJECT}&select=id,kind,body&order=id`, { token })
const addUpdate = (token: string, body: unknown) => api(server, '/rest/v1/project_updates', { token, body })

async function resetMembers() {
  await q('delete from public.project_members where project_id = $1', [PROJECT])
  await q("insert into public.project_members (project_id, user_id, role) values ($1, $2, 'editor'), ($1, $3, 'viewer')", [
    PROJECT,
    editor.id,
    viewer.id,
  ])
}

const CASES: Record<string, RlsCase> = {
  project_updates: {
    target: () => `project_id=eq.${PROJECT}&kind=eq.update`,
    insert: () => ({ project_id: PROJECT, kind: 'update', body: MARKED }),
    update: { body: 'Y2hhbmdlZA==' },
    inserted: () => exists('select 1 from public.project_updates where body = $1', [MARKED]),
    untouched: () =>
      exists("select 1 from public.project_updates where project_id = $1 and body = $2 and kind = 'update'", [PROJECT, BODY]),
    reset: async () => {
      await q('delete from public.project_updates where project_id = $1', [PROJECT])
      await q("insert into public.project_updates (project_id, author_id, kind, body) values ($1, $2, 'update', $3)", [
        PROJECT,
        owner.id,
        BODY,
      ])
    },
    expect: {
      anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'allowed', update: 'denied', delete: 'denied' },
      other: { select: 'none', insert: 'denied', update: 'denied', delete: 'denied' },
    },
  },
  project_members: {
    target: () => `project_id=eq.${PROJECT}&role=eq.viewer`,
    insert: () => ({ project_id: PROJECT, user_id: other.id, role: 'editor' }),
    update: { role: 'editor' },
    inserted: () => exists('select 1 from public.project_members where user_id = $1', [other.id]),
    untouched: () =>
      exists("select 1 from public.project_members where project_id = $1 and user_id = $2 and role = 'viewer'", [PROJECT, viewer.id]),
    reset: resetMembers,
    expect: {
      anon: { select: 'denied', insert: 'denied', update: 'denied', delete: 'denied' },
      owner: { select: 'rows', insert: 'denied', update: 'allowed', delete: 'allowed' },
      other: { select: 'none', insert: 'denied', update: 'none', delete: 'none' },
    },
  },
  // Only the owner reads the links; every change goes through the functions below.
  project_invites: {
    target: () => `project_id=eq.${PROJECT}`,
    insert: () => ({ project_id: PROJECT, role: 'editor', expires_at: new Date(Date.now() + 3600_000).toISOString() }),
    update: { revoked_at: null, expires_at: '2999-01-01T00:00:00Z' },
    inserted: () => exists('select 1 from public.project_invites where project_id = $1 and token <> $2', [PROJECT, INVITE_TOKEN]),
    untouched: () =>
      exists("select 1 from public.project_invites where token = $1 and expires_at < now() + interval '2 days'", [INVITE_TOKEN]),
    reset: async () => {
      await q('delete from public.project_invites where project_id = $1', [PROJECT])
      await q(
        'insert into public.project_invites (project_id, token, role, created_by, expires_at) ' +
          "values ($1, $2, 'viewer', $3, now() + interval '1 day')",
        [PROJECT, INVITE_TOKEN, owner.id],
      )
    },
    expect: readOnlyOwn,
  },
}

beforeAll(async () => {
  server = await startTestServer()
  owner = await signUp(server, 'collab-owner@example.com', 'owner-pass', 'collabowner')
  other = await signUp(server, 'collab-other@example.com', 'other-pass', 'collabother')
  editor = await signUp(server, 'collab-editor@example.com', 'editor-pass', 'collabeditor')
  viewer = await signUp(server, 'collab-viewer@example.com', 'viewer-pass', 'collabviewer')
  await q("insert into public.studio_projects (id, user_id, name) values ($1, $2, 'Shared song')", [PROJECT, owner.id])
}, 60_000)
afterAll(() => server?.close())

describe('shared studio projects', () => {
  rlsMatrixTests(CASES, ctx)

  it('editors add updates and everyone in the project reads them; a viewer cannot write; a stranger sees nothing', async () => {
    await CASES.project_updates!.reset(ctx())
    await resetMembers()
    expect((await addUpdate(editor.accessToken, { project_id: PROJECT, body: 'ZWRpdG9y' })).status).toBe(201)
    const refused = await addUpdate(viewer.accessToken, { project_id: PROJECT, body: 'dmlld2Vy' })
    expect(refused.status).toBe(403)
    expect(refused.json.code).toBe('42501')
    expect((await rows(viewer.accessToken)).json.map((r: { body: string }) => r.body)).toEqual([BODY, 'ZWRpdG9y'])
    expect((await rows(other.accessToken)).json).toEqual([])
    // The author is always the caller: naming someone else is not even a column one may write.
    const forged = await addUpdate(editor.accessToken, { project_id: PROJECT, body: 'Zm9yZ2Vk', author_id: owner.id })
    expect(forged.status).toBe(403)
    // Snapshots only come from compaction.
    expect((await addUpdate(editor.accessToken, { project_id: PROJECT, kind: 'snapshot', body: 'c25hcA==' })).status).toBe(403)
  })

  it('removing a collaborator takes effect at once: the next read and write are refused', async () => {
    await resetMembers()
    expect((await rows(editor.accessToken)).json.length).toBeGreaterThan(0)
    const removed = await api(server, `/rest/v1/project_members?project_id=eq.${PROJECT}&user_id=eq.${editor.id}`, {
      method: 'DELETE',
      token: owner.accessToken,
    })
    expect(removed.status).toBe(204)
    expect((await rows(editor.accessToken)).json).toEqual([])
    expect((await addUpdate(editor.accessToken, { project_id: PROJECT, body: 'bGF0ZQ==' })).status).toBe(403)
  })

  it('oversized or malformed bodies are refused by the server, with the check named', async () => {
    await resetMembers()
    const big = 'A'.repeat(349_532)
    for (const body of [big, 'not base64!', 'abc']) {
      const r = await addUpdate(editor.accessToken, { project_id: PROJECT, body })
      expect(r.status, body.slice(0, 20)).toBe(400)
      expect(r.json.code).toBe('23514')
      expect(r.json.message).toMatch(/project_updates_body_check/)
    }
    expect((await addUpdate(editor.accessToken, { project_id: PROJECT, body: 'A'.repeat(349_528) })).status).toBe(201)
  })

  it('only the owner invites, by username, as editor or viewer; mistakes are answered in words', async () => {
    await resetMembers()
    const invite = (token: string, username: string, role: string) =>
      rpc(server, token, 'invite_project_member', { p_project: PROJECT, p_username: username, p_role: role })
    const ok = await invite(owner.accessToken, 'CollabOther', 'viewer')
    expect(ok.status, ok.text).toBe(200)
    expect(ok.json).toEqual({ user_id: other.id, username: 'collabother', role: 'viewer' })
    expect((await invite(owner.accessToken, 'collabother', 'editor')).json.role).toBe('editor')
    expect(await q('select role from public.project_members where user_id = $1', [other.id])).toEqual([{ role: 'editor' }])
    // The invited creator finds the project by name (studio_projects itself stays the owner's).
    expect((await rpc(server, other.accessToken, 'my_shared_projects')).json).toEqual([
      { id: PROJECT, name: 'Shared song', owner: 'collabowner', role: 'editor' },
    ])
    expect((await rpc(server, owner.accessToken, 'my_shared_projects')).json).toEqual([])
    const byEditor = await invite(editor.accessToken, 'collabviewer', 'editor')
    expect(byEditor.status).toBe(403)
    expect(byEditor.json.message).toBe('Only the owner of a project can invite to it.')
    expect((await invite(owner.accessToken, 'nobody-here', 'viewer')).json.message).toBe('No creator is called nobody-here.')
    expect((await invite(owner.accessToken, 'collabviewer', 'admin')).json.message).toBe('A collaborator is an editor or a viewer.')
    expect((await invite(owner.accessToken, 'collabowner', 'editor')).json.message).toBe('You own this project already.')
    // An editor cannot promote a viewer either.
    await api(server, `/rest/v1/project_members?project_id=eq.${PROJECT}&user_id=eq.${viewer.id}`, {
      method: 'PATCH',
      token: editor.accessToken,
      body: { role: 'editor' },
    })
    expect(await q('select role from public.project_members where user_id = $1', [viewer.id])).toEqual([{ role: 'viewer' }])
  })

  it('compaction replaces the rows up to a point with one snapshot; viewers and strangers cannot compact', async () => {
    await CASES.project_updates!.reset(ctx())
    await resetMembers()
    for (const body of ['MQ==', 'Mg==']) await addUpdate(editor.accessToken, { project_id: PROJECT, body })
    const before = (await rows(owner.accessToken)).json as { id: number }[]
    const through = before[before.length - 1]!.id
    for (const token of [viewer.accessToken, other.accessToken]) {
      const r = await rpc(server, token, 'compact_project_updates', { p_project: PROJECT, p_through: through, p_snapshot: 'c25hcA==' })
      expect(r.status).toBe(403)
      expect(r.json.message).toBe('Only the owner and editors of a project can compact its history.')
    }
    await addUpdate(editor.accessToken, { project_id: PROJECT, body: 'Mw==' })
    expect(
      (await rpc(server, editor.accessToken, 'compact_project_updates', { p_project: PROJECT, p_through: through, p_snapshot: 'c25hcA==' }))
        .status,
    ).toBe(204)
    const after = (await rows(viewer.accessToken)).json as { kind: string; body: string }[]
    expect(after.map((r) => [r.kind, r.body])).toEqual([
      ['update', 'Mw=='],
      ['snapshot', 'c25hcA=='],
    ])
  })

  it('invite links: an outsider cannot make, list or revoke them; expired and revoked ones are refused, saying why', async () => {
    await resetMembers()
    await q('delete from public.project_invites where project_id = $1', [PROJECT])
    const signedIn = (user: TestUser) => signedInClient(server, user)
    const [mine, theirs] = [await signedIn(owner), await signedIn(other)]
    // A stranger reads nothing of the project and cannot make or revoke its links.
    await expect(loadProjectUpdates(theirs, PROJECT)).resolves.toEqual([])
    await expect(createProjectInvite(theirs, PROJECT, 'editor', 24)).rejects.toThrow('Only the owner of a project can invite to it.')
    const link = await createProjectInvite(mine, PROJECT, 'viewer', 24)
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000)
    await expect(createProjectInvite(mine, PROJECT, 'viewer', 24 * 31)).rejects.toThrow('An invite link lasts from one hour to 30 days.')
    expect(await listProjectInvites(theirs, PROJECT)).toEqual([])
    expect((await listProjectInvites(mine, PROJECT)).map((i) => i.token)).toEqual([link.token])
    await expect(revokeProjectInvite(theirs, link.id)).rejects.toThrow('Only the owner of a project can revoke its invite links.')
    await expect(acceptProjectInvite(theirs, '77777777-7777-4777-8777-777777777777')).rejects.toThrow('This invite link is not valid.')

    // Expired: refused with the date, and the stranger is still no member.
    const old = await createProjectInvite(mine, PROJECT, 'editor', 1)
    await q(
      "update public.project_invites set created_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' where id = $1",
      [old.id],
    )
    await expect(acceptProjectInvite(theirs, old.token)).rejects.toThrow(/^This invite link expired on \d{4}-\d\d-\d\d \d\d:\d\d UTC\. Ask/)
    expect(await exists('select 1 from public.project_members where user_id = $1', [other.id])).toBe(false)

    // Valid: the stranger joins as a viewer and reads the project; revoked, nobody else can join.
    await expect(acceptProjectInvite(theirs, link.token)).resolves.toEqual({ projectId: PROJECT, name: 'Shared song', role: 'viewer' })
    await q("insert into public.project_updates (project_id, author_id, kind, body) values ($1, $2, 'update', $3)", [
      PROJECT,
      owner.id,
      BODY,
    ])
    expect((await loadProjectUpdates(theirs, PROJECT)).length).toBeGreaterThan(0)
    await revokeProjectInvite(mine, link.id)
    expect((await listProjectInvites(mine, PROJECT))[0]!.revokedAt).not.toBeNull()
    await q('delete from public.project_members where user_id = $1', [other.id])
    await expect(acceptProjectInvite(theirs, link.token)).rejects.toThrow("This invite link was revoked by the project's owner.")
    await expect(loadProjectUpdates(theirs, PROJECT)).resolves.toEqual([])
    // An editor who follows a viewer's link stays an editor; the owner needs no link.
    const again = await createProjectInvite(mine, PROJECT, 'viewer', 1)
    await expect(acceptProjectInvite(await signedIn(editor), again.token)).resolves.toMatchObject({ role: 'editor' })
    await expect(acceptProjectInvite(mine, again.token)).rejects.toThrow('You own this project already.')
    // A visitor is not even let call it.
    await expect(acceptProjectInvite(supabaseClient(server), again.token)).rejects.toThrow(
      'permission denied for function accept_project_invite',
    )
  })

  it('shared audio: members read the project’s audio by its id; an outsider cannot, a stranger’s upload is never served', async () => {
    await resetMembers()
    const signedIn = (user: TestUser) => signedInClient(server, user)
    const [mine, theirs, editing, viewing] = [await signedIn(owner), await signedIn(other), await signedIn(editor), await signedIn(viewer)]
    const bytes = makeWav([tone(440, 0.05, 8000)], 8000)
    const wav = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
    await uploadProjectAudio(mine, owner.id, PROJECT, 'rec-1', wav)
    // Again: the same audio is already there, which is no error.
    await uploadProjectAudio(mine, owner.id, PROJECT, 'rec-1', wav)
    await uploadProjectAudio(editing, editor.id, PROJECT, 'rec-2', wav)
    await uploadProjectAudio(theirs, other.id, PROJECT, 'evil', wav)
    // Editors and viewers find and fetch both the owner's and the editor's audio.
    for (const db of [viewing, editing]) {
      expect(await projectAudioPath(db, PROJECT, 'rec-1')).toBe(`${owner.id}/${PROJECT}/rec-1.wav`)
      expect(await projectAudioPath(db, PROJECT, 'rec-2')).toBe(`${editor.id}/${PROJECT}/rec-2.wav`)
      expect(new Uint8Array(await downloadProjectAudio(db, `${owner.id}/${PROJECT}/rec-1.wav`))).toEqual(new Uint8Array(wav))
    }
    // A stranger's file in a folder named after the project is not the project's.
    expect(await projectAudioPath(viewing, PROJECT, 'evil')).toBeNull()
    await expect(downloadProjectAudio(viewing, `${other.id}/${PROJECT}/evil.wav`)).rejects.toThrow()
    // The outsider neither finds nor fetches the project's audio.
    expect(await projectAudioPath(theirs, PROJECT, 'rec-1')).toBeNull()
    await expect(downloadProjectAudio(theirs, `${owner.id}/${PROJECT}/rec-1.wav`)).rejects.toThrow()
    // Removed, the viewer loses it at once.
    await q('delete from public.project_members where user_id = $1', [viewer.id])
    await expect(downloadProjectAudio(viewing, `${owner.id}/${PROJECT}/rec-1.wav`)).rejects.toThrow()
  })

  it('Realtime topics: members receive on project:<id>, only the owner and editors send; anything else is refused', async () => {
    await resetMembers()
    const allowed = async (token: string, topic: string, write: boolean) =>
      (await rpc(server, token, 'project_topic_allowed', { p_topic: topic, p_write: write })).json
    const topic = `project:${PROJECT}`
    expect([await allowed(owner.accessToken, topic, true), await allowed(editor.accessToken, topic, true)]).toEqual([true, true])
    expect([await allowed(viewer.accessToken, topic, false), await allowed(viewer.accessToken, topic, true)]).toEqual([true, false])
    expect(await allowed(other.accessToken, topic, false)).toBe(false)
    expect(await allowed(owner.accessToken, `project:${PROJECT}'; drop table x; --`, false)).toBe(false)
    expect(await allowed(owner.accessToken, 'project:not-a-uuid', false)).toBe(false)
  })

  it('live: the owner shares the open mix, an editor who joins later catches up and their edits reach each other', async () => {
    await q('delete from public.project_updates where project_id = $1', [PROJECT])
    await resetMembers()
    const signedIn = (user: TestUser) => signedInClient(server, user)
    const project = { id: PROJECT, name: 'Shared song' }
    const mine = createMixerStore(new Y.Doc())
    const kick = mine.getState().addTrack({ name: 'Kick', type: 'main', audioId: 'kick', duration: 2 })
    const ownerSession = joinSharedProject({ db: await signedIn(owner), project, part: 'owner', name: 'collabowner', store: mine })
    await ownerSession.ready
    expect(mine.getState().tracks.map((t) => t.name)).toEqual(['Kick'])
    // Stored: what a creator who comes later starts from (how fast is the collaboration bench's to say;
    // the poll leaves a loaded machine the time the other steps here have).
    await expect
      .poll(async () => (await q('select 1 from public.project_updates where project_id = $1', [PROJECT])).length, { timeout: 5000 })
      .toBeGreaterThan(0)
    const theirs = createMixerStore(new Y.Doc())
    const transport = { seconds: 7, playing: true, position: () => transport.seconds, isPlaying: () => transport.playing }
    const editorSession = joinSharedProject({
      db: await signedIn(editor),
      project,
      part: 'editor',
      name: 'collabeditor',
      store: theirs,
      transport,
    })
    await editorSession.ready
    expect(theirs.getState().tracks.map((t) => t.name)).toEqual(['Kick'])
    await expect.poll(() => mine.getState().tracks.length, { timeout: 5000 }).toBe(1)
    // Presence: each sees the other, and which track they have selected.
    await expect.poll(() => peersOf(ownerSession.awareness).map((p) => p.name), { timeout: 5000 }).toEqual(['collabeditor'])
    theirs.getState().select(kick.id)
    await expect.poll(() => peersOf(ownerSession.awareness)[0]?.selectedTrackId, { timeout: 5000 }).toBe(kick.id)
    // Their playhead, and the control they take hold of, while they hold it.
    transport.seconds = 9.25
    await expect.poll(() => peersOf(ownerSession.awareness)[0]?.playhead, { timeout: 5000 }).toEqual({ seconds: 9.25, playing: true })
    editorSession.share({ touching: { trackId: kick.id, control: 'volume' } })
    await expect
      .poll(() => peersOf(ownerSession.awareness)[0]?.touching, { timeout: 5000 })
      .toEqual({ trackId: kick.id, control: 'volume' })
    theirs.getState().setControl(kick.id, 'volume', 12)
    await expect.poll(() => mine.getState().tracks[0]!.volume, { timeout: 5000 }).toBe(12)
    editorSession.share({ touching: null })
    await expect.poll(() => peersOf(ownerSession.awareness)[0]?.touching, { timeout: 5000 }).toBeNull()
    mine.getState().renameTrack(kick.id, 'Big Kick')
    await expect.poll(() => theirs.getState().tracks[0]!.name, { timeout: 5000 }).toBe('Big Kick')
    // Each undoes only their own edit.
    theirs.getState().undo()
    await expect.poll(() => mine.getState().tracks[0]!.volume, { timeout: 5000 }).toBe(70)
    expect(mine.getState().tracks[0]!.name).toBe('Big Kick')
    await editorSession.leave()
    await expect.poll(() => peersOf(ownerSession.awareness), { timeout: 5000 }).toEqual([])
    await ownerSession.leave()
  }, 30_000)
})
