/** An edge function's refusal as the user should read it (its { error } body), not "non-2xx". */
export async function functionError(error: unknown): Promise<Error> {
  const context = (error as { context?: Response }).context
  if (context && typeof context.json === 'function') {
    try {
      const body = (await context.clone().json()) as { error?: string }
      if (body.error) return new Error(body.error)
    } catch {
      /* not JSON */
    }
  }
  return error instanceof Error ? error : new Error(String(error))
}
