import { useMachine } from '@xstate/react'
import type { GenerationRequest } from './generation-machine.ts'
import { generationMachine } from './generation-runtime.ts'

/** One generation flow per component instance (the studio tab and the landing card each have one). */
export function useGeneration() {
  const [snapshot, send] = useMachine(generationMachine)
  const phase = snapshot.value as 'idle' | 'composing' | 'rendering' | 'ready' | 'failed'
  return {
    phase,
    busy: phase === 'composing' || phase === 'rendering',
    progress: snapshot.context.progress,
    score: snapshot.context.score,
    buffer: snapshot.context.buffer,
    generate: (request: GenerationRequest) => send({ type: 'GENERATE', request }),
    cancel: () => send({ type: 'CANCEL' }),
  }
}
