// The embedded local backend's public anon key (supabase/local/core/local-keys.ts signs the same one;
// tests/backend/local-keys.test.ts keeps the two equal). It is the Supabase CLI's demo anon key and
// only works against a backend on this machine; hosted projects set VITE_SUPABASE_ANON_KEY.
export const LOCAL_ANON_KEY =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0'
