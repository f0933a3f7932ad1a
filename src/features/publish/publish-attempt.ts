/**
 * One publish dialog is one attempt: one idempotency key, sent with every try of that dialog, and
 * at most one try in flight. A second click while a try runs joins it instead of starting another;
 * a retry after a failure reuses the key, so if the first try did publish (its answer lost), the
 * server answers that publication instead of making a second one (publish_song's attempt key).
 */
export interface PublishAttempt<T> {
  readonly key: string
  readonly busy: boolean
  run(task: (key: string) => Promise<T>): Promise<T>
}

export function publishAttempt<T>(newKey: () => string = () => crypto.randomUUID()): PublishAttempt<T> {
  const key = newKey()
  let inFlight: Promise<T> | null = null
  return {
    key,
    get busy() {
      return inFlight !== null
    },
    run(task) {
      inFlight ??= task(key).finally(() => {
        inFlight = null
      })
      return inFlight
    },
  }
}
