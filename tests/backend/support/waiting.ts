/** Polls `check` every 10 ms until it holds (true) or `ms` have passed (false): for what arrives over a socket. */
export async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) return false
    await new Promise((r) => setTimeout(r, 10))
  }
  return true
}

/** Time for a message that should not come to have come. */
export const settle = (ms = 300): Promise<unknown> => new Promise((r) => setTimeout(r, ms))
