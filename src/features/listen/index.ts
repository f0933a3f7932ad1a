export { ListenCreditNote } from './ListenCreditNote.tsx'
export { startListenReporter } from './listen-reporter.ts'
export { capNote, dailyCapStatus, qualifyRuleText, songReward, startRewardRules, useListenRules, useRewardRules, type RewardRules } from './reward-rules.ts'
