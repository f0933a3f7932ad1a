import { notify } from '../../lib/notify.ts'

/**
 * Says what a mailed auth link did, read from the address the link landed on before the auth
 * client takes its session out of it: `#…&type=signup` (confirmed), `type=email_change`, or
 * GoTrue's `#error=…&error_description=…` for a used or expired link.
 */
export function announceAuthLink(hash: string = window.location.hash): void {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  if (params.get('error_code') || params.get('error')) {
    const why = params.get('error_description') ?? 'The link did not work.'
    notify.error('That link did not work', { description: `${why.replace(/\.$/, '')}. Ask for a new one.` })
    return
  }
  if (!params.get('access_token')) return
  const type = params.get('type')
  if (type === 'signup') notify.success('E-mail confirmed', { description: 'Welcome to CUBE Music! Your wallet is being set up.' })
  if (type === 'email_change') notify.success('E-mail changed', { description: 'You now sign in with your new e-mail.' })
}
