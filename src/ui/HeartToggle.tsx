import { Icon } from './Icon.tsx'

/**
 * The heart every song row, card and page uses for favourites: pressed while the song is a
 * favourite. Features wire it to the favourites store; `label` is its accessible name.
 */
export function HeartToggle({
  liked,
  onToggle,
  label,
  size = 16,
  className = 'rounded p-1.5',
}: {
  liked: boolean
  onToggle: () => void
  label: string
  size?: number
  /** Shape and padding; the colours follow `liked`. */
  className?: string
}) {
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-pressed={liked}
      aria-label={label}
      title={liked ? 'Remove from favourites' : 'Add to favourites'}
      className={`${className} ${liked ? 'text-secondary' : 'text-muted hover:text-secondary'}`}
    >
      <Icon name="heart" size={size} className={liked ? 'fill-current' : ''} />
    </button>
  )
}
