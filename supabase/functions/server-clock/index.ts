// Edge function for hosted Supabase (Deno): wiring only; the logic is in handler.ts.
import { serverClock } from './handler.ts'

Deno.serve(serverClock())
