import type { CaughtMail } from './catcher.ts'

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

/**
 * The developer's mailbox: the caught mails, newest first, and the chosen one's HTML in a
 * sandboxed frame. Plain HTML with inline styles and no script (reload to see new mail).
 */
export function mailboxPage(mails: readonly CaughtMail[], selectedId: string | null): string {
  const selected = mails.find((m) => m.id === selectedId) ?? mails[0]
  const rows = mails
    .map(
      (m) =>
        `<li><a href="/?id=${m.id}"${m === selected ? ' aria-current="true"' : ''}>` +
        `<strong>${escapeHtml(m.subject || '(no subject)')}</strong>` +
        `<span>${escapeHtml(m.to.join(', '))} · ${escapeHtml(new Date(m.date).toLocaleString('en-GB'))}</span></a></li>`,
    )
    .join('')
  const view = selected
    ? `<h2>${escapeHtml(selected.subject)}</h2>` +
      `<p class="meta">From ${escapeHtml(selected.from)} to ${escapeHtml(selected.to.join(', '))}</p>` +
      `<iframe title="Message" src="/api/messages/${selected.id}/html"></iframe>` +
      `<details><summary>Text part</summary><pre>${escapeHtml(selected.text)}</pre></details>`
    : '<p class="empty">No mail yet. Mail the local backend sends (sign-up confirmations, password resets, ' +
      'e-mail changes) shows up here.</p>'
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local mailbox · CUBE Music</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{margin:0;background:#05060a;color:#e8eaf2;font:14px system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
header{padding:14px 20px;border-bottom:1px solid #23263a;display:flex;gap:16px;align-items:center}
header b{color:#00f0ff;letter-spacing:.08em}header a{color:#00f0ff}
main{display:grid;grid-template-columns:minmax(220px,320px) 1fr;min-height:calc(100vh - 50px)}
ul{list-style:none;margin:0;padding:0;border-right:1px solid #23263a}
li a{display:block;padding:10px 16px;color:inherit;text-decoration:none;border-bottom:1px solid #151827}
li a[aria-current]{background:#10121c;box-shadow:inset 3px 0 #00f0ff}
li span{display:block;color:#8a90a6;font-size:12px;margin-top:2px}
section{padding:16px 20px}.meta,.empty{color:#8a90a6}
iframe{width:100%;height:70vh;border:1px solid #23263a;border-radius:12px;background:#05060a}
pre{white-space:pre-wrap}
</style></head><body>
<header><b>CUBE MUSIC</b><span>Local mailbox: ${mails.length} mail${mails.length === 1 ? '' : 's'}</span><a href="/">Refresh</a></header>
<main><ul>${rows}</ul><section>${view}</section></main></body></html>`
}
