// Edge function for hosted Supabase (Deno): wiring only; the logic is in handler.ts. The audio is
// read with the service role from Storage and parsed by music-metadata (the same version as the
// local backend's, package.json).
import { createClient } from 'npm:@supabase/supabase-js@2.109.0'
import { parseBuffer } from 'npm:music-metadata@11.16.1'
import { measureAudio } from './handler.ts'

const url = Deno.env.get('SUPABASE_URL')!
const noSession = { persistSession: false, autoRefreshToken: false }
const service = createClient(url, Deno.env.get('SUPABASE_SERVICE_ROLE_KEY')!, { auth: noSession })
Deno.serve(
  measureAudio({
    clientFor: (token) =>
      createClient(url, Deno.env.get('SUPABASE_ANON_KEY')!, { global: { headers: { Authorization: `Bearer ${token}` } }, auth: noSession }),
    service,
    async readObject(bucket, path) {
      const { data, error } = await service.storage.from(bucket).download(path)
      if (error || !data) return null
      return { bytes: new Uint8Array(await data.arrayBuffer()), mimeType: data.type }
    },
    durationOf: async (bytes, mimeType) =>
      (await parseBuffer(bytes, { mimeType: mimeType.split(';')[0], size: bytes.byteLength }, { duration: true })).format.duration,
  }),
)
