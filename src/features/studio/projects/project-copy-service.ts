import { supabase } from '../../../backend/client.ts'
import { mixerEngine } from '../../../engine/mixer-engine.ts'
import { saveProject } from '../../../engine/project-db.ts'
import { downloadProjectCopy } from './studio-project-copies.ts'
import { useProjectStore } from './project-store.ts'

// A project's full copy (mix and audio) in the signed-in user's account, downloaded into this
// browser and opened (the upload is automatic: studio-project-sync.ts). Progress goes from 0 to 1.

/** Downloads the account's copy into this browser and opens it in the studio; resolves to its name. */
export async function openProjectFromAccount(userId: string, projectId: string, onProgress: (fraction: number) => void): Promise<string> {
  const { project, audio } = await downloadProjectCopy(supabase(), userId, projectId, onProgress)
  await saveProject(project, (id) => audio.get(id))
  await useProjectStore.getState().refresh()
  mixerEngine.stop()
  await useProjectStore.getState().open(project.id)
  return project.name
}
