import type { KeyboardCoordinateGetter } from '@dnd-kit/core'
import { KEYBOARD_DRAG_STEP_PX } from '../../config/navigation.ts'

/** Arrow keys move a dragged group by a fixed step, as the reference specifies (25 px). */
export const stepCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  const step = KEYBOARD_DRAG_STEP_PX
  switch (event.code) {
    case 'ArrowDown':
      return { ...currentCoordinates, y: currentCoordinates.y + step }
    case 'ArrowUp':
      return { ...currentCoordinates, y: currentCoordinates.y - step }
    case 'ArrowRight':
      return { ...currentCoordinates, x: currentCoordinates.x + step }
    case 'ArrowLeft':
      return { ...currentCoordinates, x: currentCoordinates.x - step }
    default:
      return undefined
  }
}
