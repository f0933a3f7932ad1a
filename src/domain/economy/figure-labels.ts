/**
 * The names of the figures several pages show, one name per figure and one server source each
 * ("212 today" beside "62 daily earned", three listen counters that disagreed,
 * and "Tracks" meaning listens on one page and published songs on another).
 */
export const FIGURE_LABELS = {
  /** user_tokens.daily_earned: CUBE credited for listening since 00:00 UTC. */
  listeningToday: 'Listening CUBE today',
  /** user_tokens.listens_today: listens the server rewarded since 00:00 UTC (the daily cap counts these). */
  rewardedListensToday: 'Rewarded listens today',
  /** The ledger's credits since 00:00 UTC, every source (listening, comments, shares, bonuses). */
  earnedToday: 'Earned today (all sources)',
  /** listen_history rows: every play the server recorded, rewarded or not. */
  playsAllTime: 'Plays',
  /** songs the user published. */
  publishedSongs: 'Published songs',
} as const

/**
 * Listen to Earn's stats panel keeps the reference's labels; each says in its hint exactly which
 * figure it is, by the name the Wallet gives the same figure.
 */
export const LISTEN_PANEL_LABELS = {
  earnedToday: {
    label: 'Earned Today',
    hint: `CUBE your listening earned since 00:00 UTC (the Wallet's "${FIGURE_LABELS.listeningToday}"; shares and bonuses not included).`,
  },
  tracksListened: {
    label: 'Tracks Listened',
    hint: `Listens rewarded since 00:00 UTC, which the daily limit counts (the Wallet's "${FIGURE_LABELS.rewardedListensToday}").`,
  },
} as const
