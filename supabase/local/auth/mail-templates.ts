import type { MailMessage } from './mailer.ts'

// The auth mails in the app's look (its dark background, cyan action colour, plain system fonts),
// as text and HTML. Nothing is loaded from elsewhere: no images, fonts or trackers.

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')

interface Body {
  heading: string
  paragraphs: string[]
  action?: { label: string; url: string }
  footnote: string
}

function render(to: string, subject: string, body: Body): MailMessage {
  const text = [
    body.heading,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`, ''] : []),
    body.footnote,
    '',
    '— CUBE Music',
  ].join('\n')
  const button = body.action
    ? `<p style="margin:28px 0"><a href="${escapeHtml(body.action.url)}" style="display:inline-block;padding:12px 22px;` +
      `border-radius:10px;background:#00f0ff;color:#05060a;font-weight:700;text-decoration:none">${escapeHtml(body.action.label)}</a></p>` +
      `<p style="font-size:12px;color:#8a90a6;word-break:break-all">Or open this link: ${escapeHtml(body.action.url)}</p>`
    : ''
  const html =
    '<!doctype html><html><head><meta charset="utf-8"><meta name="color-scheme" content="dark"></head>' +
    '<body style="margin:0;background:#05060a;color:#e8eaf2;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif">' +
    '<div style="max-width:520px;margin:0 auto;padding:32px 24px">' +
    '<p style="margin:0 0 24px;font-weight:800;letter-spacing:0.08em;color:#00f0ff">CUBE MUSIC</p>' +
    `<div style="background:#10121c;border:1px solid #23263a;border-radius:16px;padding:28px">` +
    `<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(body.heading)}</h1>` +
    body.paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join('') +
    button +
    '</div>' +
    `<p style="margin:20px 0 0;font-size:12px;color:#8a90a6;line-height:1.5">${escapeHtml(body.footnote)}</p>` +
    '</div></body></html>'
  return { to, subject, text, html }
}

const IGNORE = 'If you did not ask for this, you can ignore this mail: nothing changes without the link.'

export const confirmSignupMail = (to: string, url: string): MailMessage =>
  render(to, 'Confirm your CUBE Music account', {
    heading: 'Confirm your e-mail',
    paragraphs: [`Someone (hopefully you) created a CUBE Music account with ${to}.`, 'Confirm the address to sign in.'],
    action: { label: 'Confirm e-mail', url },
    footnote: `The link works once and expires within an hour. ${IGNORE}`,
  })

export const resetPasswordMail = (to: string, url: string): MailMessage =>
  render(to, 'Reset your CUBE Music password', {
    heading: 'Reset your password',
    paragraphs: [`We got a request to reset the password of the CUBE Music account ${to}.`],
    action: { label: 'Choose a new password', url },
    footnote: `The link works once and expires within an hour. ${IGNORE}`,
  })

export const confirmEmailChangeMail = (to: string, from: string, url: string): MailMessage =>
  render(to, 'Confirm your new e-mail for CUBE Music', {
    heading: 'Confirm your new e-mail',
    paragraphs: [`The CUBE Music account ${from} asked to use ${to} from now on.`, 'The change takes effect once you confirm it.'],
    action: { label: 'Confirm new e-mail', url },
    footnote: `The link works once and expires within an hour. ${IGNORE}`,
  })

export const emailChangeNoticeMail = (to: string, next: string): MailMessage =>
  render(to, 'Your CUBE Music e-mail is about to change', {
    heading: 'E-mail change requested',
    paragraphs: [
      `Your CUBE Music account asked to change its e-mail from ${to} to ${next}.`,
      'It changes only once the new address confirms it.',
    ],
    footnote: 'If this was not you, sign in and change your password now: the request needed it.',
  })
