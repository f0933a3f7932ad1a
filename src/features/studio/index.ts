export { addAudioToMixer } from './mixer-store.ts'
export { useAccountProjectStore } from './projects/account-project-store.ts'
export { refreshAccountProjects, startStudioProjectSync } from './projects/studio-project-sync.ts'
export { startMixAutosave } from './autosave/mix-autosave.ts'
