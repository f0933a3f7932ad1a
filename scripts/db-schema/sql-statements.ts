/**
 * Splits SQL text into top-level statements, each with the comment lines written directly above it
 * (the "why" a reader needs). Quotes, double quotes, dollar quotes and both comment forms are
 * skipped over, so a `;` inside a function body never ends a statement.
 */
export interface Statement {
  /** The `--` lines directly above the statement (no blank line between), without trailing newline. */
  comment: string
  /** The statement itself, from its first keyword to its closing `;` (included). */
  text: string
  /** A comment block above it that blank lines (and nothing else) separate from it, e.g. a file's header. */
  detachedComment?: string
}

export function splitStatements(sql: string): Statement[] {
  const out: Statement[] = []
  let i = 0
  let pendingComment: string[] = []
  let detached: string[] = []
  const n = sql.length
  while (i < n) {
    // Between statements: whitespace and comments.
    const ch = sql[i]!
    if (ch === '\n') {
      // A blank line detaches the comment above it from the next statement.
      const nextLineEnd = sql.indexOf('\n', i + 1)
      const line = sql.slice(i + 1, nextLineEnd === -1 ? n : nextLineEnd)
      if (line.trim() === '' && pendingComment.length) {
        detached = pendingComment
        pendingComment = []
      }
      i++
      continue
    }
    if (/\s/.test(ch)) {
      i++
      continue
    }
    if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i)
      pendingComment.push(sql.slice(i, end === -1 ? n : end).trimEnd())
      i = end === -1 ? n : end
      continue
    }
    if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2)
      i = end === -1 ? n : end + 2
      continue
    }
    if (ch === ';') {
      i++
      continue
    }
    const start = i
    i = statementEnd(sql, i)
    out.push({ comment: pendingComment.join('\n'), text: sql.slice(start, i).trim(), detachedComment: detached.join('\n') || undefined })
    pendingComment = []
    detached = []
  }
  return out
}

/** Index just past the `;` that ends the statement starting at `i` (or the end of the text). */
function statementEnd(sql: string, i: number): number {
  const n = sql.length
  while (i < n) {
    const ch = sql[i]!
    if (ch === "'" || ch === '"') {
      i++
      while (i < n) {
        if (sql[i] === ch) {
          if (sql[i + 1] === ch) i += 2
          else break
        } else i++
      }
      i++
    } else if (ch === '$') {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64))
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length)
        i = close === -1 ? n : close + tag[0].length
      } else i++
    } else if (sql.startsWith('--', i)) {
      const end = sql.indexOf('\n', i)
      i = end === -1 ? n : end
    } else if (sql.startsWith('/*', i)) {
      const end = sql.indexOf('*/', i + 2)
      i = end === -1 ? n : end + 2
    } else if (ch === ';') {
      return i + 1
    } else i++
  }
  return n
}
