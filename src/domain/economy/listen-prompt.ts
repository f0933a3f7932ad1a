import { create } from 'zustand'

// "Still listening?": the server answers needs_interaction after an hour without user input; the
// music plays on, rewards wait until the listener answers (or touches the app).

interface ListenPromptState {
  needsInteraction: boolean
  answering: boolean
}

export const useListenPrompt = create<ListenPromptState>()(() => ({ needsInteraction: false, answering: false }))
