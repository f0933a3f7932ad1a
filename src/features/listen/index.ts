export { ListenCreditNote } from './ListenCreditNote.tsx'
export { applyListenAnswer, startListenReporter } from './listen-reporter.ts'
export { capNote, dailyCapStatus, qualifyRuleText, songReward, startRewardRules, useListenRules, useRewardRules, type RewardRules } from './reward-rules.ts'
