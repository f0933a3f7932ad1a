// The Supabase CLI's demo anon key (supabase/local/core/local-keys.ts signs the same one;
// tests/backend/local-keys.test.ts keeps the two equal): the last resort when the page carries no
// key of its own. The local backend accepts it only when started with LOCAL_JWT_SECRET set to the
// demo secret; it serves each data folder's own key in the page; hosted projects set VITE_SUPABASE_ANON_KEY.
export const LOCAL_ANON_KEY = [
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
  'eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9',
  'CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
].join('.')
