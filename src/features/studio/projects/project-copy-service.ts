import { supabase } from '../../../backend/client.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { getAudio, getProject, saveProject } from '../../../engine/project-db.ts'
import { downloadProjectCopy, uploadProjectCopy } from './studio-project-copies.ts'
import { refreshAccountProjects } from './studio-project-sync.ts'
import { useProjectStore } from './project-store.ts'

// A project's full copy (mix and audio) in the signed-in user's account: uploaded from this
// browser, or downloaded into it and opened. Progress goes from 0 to 1.

/** Uploads the local project's full copy and rereads the account's list; resolves to its name. */
export async function uploadProjectToAccount(userId: string, projectId: string, onProgress: (fraction: number) => void): Promise<string> {
  const stored = await getProject(projectId)
  if (!stored) throw new Error('This project is no longer in this browser.')
  await uploadProjectCopy(supabase(), userId, stored, getAudio, onProgress)
  await refreshAccountProjects()
  return stored.name
}

/** Downloads the account's copy into this browser and opens it in the studio; resolves to its name. */
export async function openProjectFromAccount(userId: string, projectId: string, onProgress: (fraction: number) => void): Promise<string> {
  const { project, audio } = await downloadProjectCopy(supabase(), userId, projectId, onProgress)
  await saveProject(project, (id) => audio.get(id))
  await useProjectStore.getState().refresh()
  mixerEngine.stop()
  await useProjectStore.getState().open(project.id)
  return project.name
}
