import { WHITEPAPER_SECTIONS, type WhitepaperSection } from './whitepaper-content.ts'

const DEFAULT_SECTION = WHITEPAPER_SECTIONS[0]!

/** The section for a URL key; anything unknown (or missing) reads as the executive summary. */
export function resolveSection(key: string | undefined): WhitepaperSection {
  return WHITEPAPER_SECTIONS.find((s) => s.key === key) ?? DEFAULT_SECTION
}

/** The sections before and after, or null at either end (the buttons are disabled there). */
export function neighbours(key: string): { previous: WhitepaperSection | null; next: WhitepaperSection | null } {
  const i = WHITEPAPER_SECTIONS.findIndex((s) => s.key === key)
  return {
    previous: i > 0 ? WHITEPAPER_SECTIONS[i - 1]! : null,
    next: i >= 0 && i < WHITEPAPER_SECTIONS.length - 1 ? WHITEPAPER_SECTIONS[i + 1]! : null,
  }
}

/** Sections whose Chinese title or English name contains the query (case-insensitive, trimmed). */
export function filterSections(query: string): readonly WhitepaperSection[] {
  const q = query.trim().toLowerCase()
  if (!q) return WHITEPAPER_SECTIONS
  return WHITEPAPER_SECTIONS.filter((s) => s.title.toLowerCase().includes(q) || s.english.toLowerCase().includes(q))
}
