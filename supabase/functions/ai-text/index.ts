// Edge function for hosted Supabase (Deno). The logic is in handler.ts, shared with the embedded
// local backend; the hosted dependencies come from _shared/hosted-ai-deps.deno.ts.
import { hostedAiDeps } from '../_shared/hosted-ai-deps.deno.ts'
import { aiText } from './handler.ts'

Deno.serve(aiText(hostedAiDeps()))
