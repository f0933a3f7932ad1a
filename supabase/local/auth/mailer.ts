import nodemailer from 'nodemailer'

/** One mail as the auth service sends it: always both a text and an HTML part. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

export type SendMail = (message: MailMessage) => Promise<void>

/** The sender address GoTrue's SMTP_ADMIN_EMAIL stands for (LOCAL_MAIL_FROM). */
export const DEFAULT_MAIL_FROM = 'CUBE Music <no-reply@cube.local>'

/**
 * Sends through an SMTP server, as hosted Supabase sends through its own or a custom SMTP server
 * (`smtp://user:pass@host:port`; `smtps://` for TLS from the first byte).
 */
export function smtpMailer(url: string, from: string = DEFAULT_MAIL_FROM): SendMail {
  const transport = nodemailer.createTransport(url)
  return async (message) => {
    await transport.sendMail({ from, ...message })
  }
}

/**
 * Hands a mail to the mailer without making the request wait for SMTP: an answer that came back
 * slower whenever an account exists would tell a stranger which addresses are registered. A
 * failure is logged for the operator (the requester is never told, as GoTrue's async mailer).
 */
export function deliver(send: SendMail | undefined, message: MailMessage): void {
  if (!send) {
    console.warn(`auth: no SMTP server configured, mail "${message.subject}" to ${message.to} was not sent`)
    return
  }
  send(message).catch((error: unknown) => {
    console.error(`auth: could not send "${message.subject}" to ${message.to}:`, error instanceof Error ? error.message : error)
  })
}
