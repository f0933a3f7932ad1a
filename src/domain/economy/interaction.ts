// Whether the user touched the app: the server stops listening rewards after an hour without an
// interaction ("Still listening?"), so every listening call says whether there was one since the
// previous call. Only real input counts (a click, a key, a touch), never the player advancing.

let interacted = true

export function noteInteraction(): void {
  interacted = true
}

/** True once after each interaction: the call that takes it tells the server. */
export function takeInteraction(): boolean {
  const was = interacted
  interacted = false
  return was
}

let watching = false

/** Listens for the user's input on the whole page (once per page). */
export function startInteractionWatch(target: Pick<Window, 'addEventListener'> = window): void {
  if (watching) return
  watching = true
  for (const type of ['pointerdown', 'keydown', 'touchstart'] as const) {
    target.addEventListener(type, noteInteraction, { capture: true, passive: true })
  }
}
