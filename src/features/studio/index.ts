export { refreshAccountProjects, startStudioProjectSync } from './projects/studio-project-sync.ts'
export { startMixAutosave } from './autosave/mix-autosave.ts'
export { StudioProjectsSection } from './projects/StudioProjectsSection.tsx'
