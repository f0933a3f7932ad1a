import { describe, expect, it } from 'vitest'
import { FALLBACK_COMMENT_RULES } from './comment-rules.ts'

describe('FALLBACK_COMMENT_RULES', () => {
  it('states what SQL comment_rules() states', () => {
    const sql = Object.values(
      import.meta.glob<string>('../../../supabase/schemas/comments.sql', {
        query: '?raw',
        import: 'default',
        eager: true,
      }),
    )[0]!
    const r = FALLBACK_COMMENT_RULES
    expect(sql).toContain(`'max_length', ${r.max_length},`)
    expect(sql).toContain(
      `'rewards', json_build_object('comment', ${r.rewards.comment}, 'like', ${r.rewards.like}, 'reply', ` +
        `${r.rewards.reply}, 'reply_author', ${r.rewards.reply_author}, 'daily_goal_bonus', ` +
        `${r.rewards.daily_goal_bonus})`,
    )
    expect(sql).toContain(
      `'daily_caps', json_build_object('comment', ${r.daily_caps.comment}, 'like', ${r.daily_caps.like}, 'reply', ` +
        `${r.daily_caps.reply}, 'reply_author', ${r.daily_caps.reply_author})`,
    )
    expect(sql).toContain(`'daily_goal_tracks', ${r.daily_goal_tracks},`)
    expect(sql).toContain(`'tracks_per_level', ${r.tracks_per_level}\n`)
  })
})
