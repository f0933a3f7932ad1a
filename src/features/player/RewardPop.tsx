import { useEffect, useState } from 'react'
import { REWARD_ANIMATION_MS, rewardMessage, useRewardStore } from '../../domain/economy/reward-store.ts'
import { useDailyCap } from '../../domain/economy/useDailyCap.ts'

/** The '+2 CUBE per listen' message that pops for 1.5 s each time play is pressed. */
export function RewardPop({ className = '' }: { className?: string }) {
  const flashKey = useRewardStore((s) => s.flashKey)
  const amount = useRewardStore((s) => s.flashAmount)
  // Each flash shows until its animation has run; then its key is marked done.
  const [doneKey, setDoneKey] = useState(0)
  const shownKey = flashKey !== doneKey ? flashKey : 0
  // Once today's rewarded listens are used up, promising '+N CUBE' would be untrue.
  const cap = useDailyCap()

  useEffect(() => {
    if (flashKey === 0) return
    const t = window.setTimeout(() => setDoneKey(flashKey), REWARD_ANIMATION_MS)
    return () => window.clearTimeout(t)
  }, [flashKey])

  return (
    <div aria-live="polite" className={`pointer-events-none ${className}`}>
      {shownKey > 0 && (
        <span
          key={shownKey}
          data-testid="reward-pop"
          className="reward-pop inline-block rounded-full border border-accent bg-panel px-3 py-1 text-sm font-bold text-accent neon-box"
        >
          {cap.capped ? cap.note : rewardMessage(amount)}
        </span>
      )}
    </div>
  )
}
