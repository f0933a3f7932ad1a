import { sendJson } from '../core/errors.ts'
import type { ApiRequest } from '../core/router.ts'

/** GET /auth/v1/health. */
export async function health(_context: unknown, { res }: ApiRequest) {
  sendJson(res, 200, { name: 'GoTrue (CUBE local)', description: 'Local auth for CUBE Music' })
}
