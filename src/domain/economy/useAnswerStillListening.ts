import { useBackend } from '../session/backend-context.ts'
import { answerStillListening } from './listen-reporter.ts'

/** The "Still listening?" answer through the injected backend. */
export function useAnswerStillListening(): () => Promise<void> {
  const { wallet } = useBackend()
  return () => answerStillListening(wallet.confirmStillListening)
}
