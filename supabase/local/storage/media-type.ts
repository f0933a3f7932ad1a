import { invalidMimeType } from './errors.ts'

/** A Content-Type read by RFC 9110's grammar: `type/subtype *( OWS ";" OWS name=value )`. */
export interface MediaType {
  /** `type/subtype`, lower-case: what allow-lists and the magic-number check compare. */
  essence: string
  /** The canonical header value stored and served back: the essence plus its well-formed parameters. */
  header: string
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+"
const QUOTED = '"(?:[^"\\\\\\x00-\\x08\\x0a-\\x1f\\x7f]|\\\\[\\x09\\x20-\\x7e\\x80-\\xff])*"'
const ESSENCE = new RegExp(`^(${TOKEN})/(${TOKEN})`)
const PARAMETER = new RegExp(`^[ \\t]*;[ \\t]*(${TOKEN})=(${TOKEN}|${QUOTED})`)
const EMPTY_PARAMETER = /^[ \t]*;/

/**
 * Parses one media type strictly. Anything the grammar does not allow (a second type after a
 * comma, stray characters, a parameter without a value) is refused rather than guessed at:
 * browsers read such a header their own way (`image/png;, text/html` renders as HTML in
 * Chromium), so the type stored must be exactly the one that was checked.
 */
export function parseMediaType(value: string): MediaType {
  const text = value.trim()
  const essence = ESSENCE.exec(text)
  if (!essence) throw invalidMimeType(value, 'it is not a media type of the form type/subtype')
  let rest = text.slice(essence[0].length)
  const parameters: string[] = []
  while (rest.trim() !== '') {
    const parameter = PARAMETER.exec(rest)
    if (parameter) {
      parameters.push(`${parameter[1]!.toLowerCase()}=${parameter[2]}`)
      rest = rest.slice(parameter[0].length)
      continue
    }
    // A bare ";" (for instance a trailing one) carries nothing and is allowed by the grammar.
    const empty = EMPTY_PARAMETER.exec(rest)
    if (!empty || !/^[ \t]*(;|$)/.test(rest.slice(empty[0].length)))
      throw invalidMimeType(value, 'it must be exactly one media type, optionally with name=value parameters')
    rest = rest.slice(empty[0].length)
  }
  const lower = `${essence[1]!.toLowerCase()}/${essence[2]!.toLowerCase()}`
  return { essence: lower, header: [lower, ...parameters].join('; ') }
}
