// The admin feature's query keys: one per report it reads.

export const adminKeys = {
  economy: (days: number) => ['admin', 'economy', days] as const,
  knowledge: (query: string) => ['admin', 'knowledge', query] as const,
  administrators: () => ['admin', 'administrators'] as const,
  /** The admin change history; `version` is the caller's count of its own changes. */
  audit: (version: number) => ['admin', 'audit', version] as const,
  /** Every knowledge-base search, for refreshing after an entry changes. */
  knowledgeAll: () => ['admin', 'knowledge'] as const,
}
