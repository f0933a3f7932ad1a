/**
 * What to tell the user about a failure: an Error's message, the `message` of an error-shaped
 * object (supabase-js hands back PostgrestError and StorageError objects, not always Errors), or
 * the value itself as text.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message)
  return String(error)
}
