// The component tier's shared drivers: find what a user sees by its role and accessible name or by
// its label, the way a screen reader names it, so a test reads like the screen and one markup
// change is fixed here once. Each finder throws in words when nothing matches, naming what was
// on offer, instead of handing the test an undefined to trip over later.

type Scope = ParentNode

const nameOf = (el: Element): string =>
  (el.getAttribute('aria-label') ?? (el.getAttribute('aria-labelledby') ? labelledBy(el) : el.textContent) ?? '')
    .replace(/\s+/g, ' ')
    .trim()

const labelledBy = (el: Element): string =>
  (el.getAttribute('aria-labelledby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')

const matches = (actual: string, name: string | RegExp): boolean => (typeof name === 'string' ? actual === name : name.test(actual))

const ROLE_SELECTOR: Record<string, string> = {
  button: 'button, [role="button"], input[type="button"], input[type="submit"]',
  tab: '[role="tab"]',
  tabpanel: '[role="tabpanel"]',
  link: 'a[href], [role="link"]',
  checkbox: 'input[type="checkbox"], [role="checkbox"]',
  switch: '[role="switch"]',
  dialog: '[role="dialog"], dialog',
  menuitem: '[role="menuitem"]',
  list: 'ul, ol, [role="list"]',
  listitem: 'li, [role="listitem"]',
  region: 'section[aria-label], section[aria-labelledby], [role="region"]',
  heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
  form: 'form',
}

/** Every element of `role` under `scope` whose accessible name is `name` (all of them without a name). */
export function allByRole<T extends HTMLElement = HTMLElement>(scope: Scope, role: string, name?: string | RegExp): T[] {
  const selector = ROLE_SELECTOR[role] ?? `[role="${role}"]`
  return [...scope.querySelectorAll<T>(selector)].filter((el) => name === undefined || matches(nameOf(el), name))
}

/** The one element of `role` named `name`; throws naming the ones there are. */
export function byRole<T extends HTMLElement = HTMLElement>(scope: Scope, role: string, name?: string | RegExp): T {
  const found = allByRole<T>(scope, role, name)
  if (found.length === 1) return found[0]!
  const offered = allByRole(scope, role).map((el) => JSON.stringify(nameOf(el)))
  throw new Error(
    `${found.length === 0 ? 'No' : `${found.length}`} ${role} named ${String(name)} here` +
      (found.length === 0 ? `; there are: ${offered.join(', ') || 'none'}` : ': name it more exactly'),
  )
}

/** The one element of `role` named `name`, or null: for asserting that something is not shown. */
export function queryByRole<T extends HTMLElement = HTMLElement>(scope: Scope, role: string, name?: string | RegExp): T | null {
  return allByRole<T>(scope, role, name)[0] ?? null
}

export const button = (scope: Scope, name: string | RegExp) => byRole<HTMLButtonElement>(scope, 'button', name)
export const tab = (scope: Scope, name: string | RegExp) => byRole(scope, 'tab', name)

/** The form control a label names: `<label for>`, a label wrapping it, or its own aria-label. */
export function field<T extends HTMLElement = HTMLInputElement>(scope: Scope, label: string | RegExp): T {
  for (const l of scope.querySelectorAll('label')) {
    if (!matches((l.textContent ?? '').replace(/\s+/g, ' ').trim(), label)) continue
    const control = l.htmlFor ? document.getElementById(l.htmlFor) : l.querySelector('input, select, textarea, [role="switch"]')
    if (control) return control as T
  }
  const named = [...scope.querySelectorAll<T>('input, select, textarea')].find((el) => matches(el.getAttribute('aria-label') ?? '', label))
  if (named) return named
  const labels = [...scope.querySelectorAll('label')].map((l) => JSON.stringify(l.textContent?.trim()))
  throw new Error(`No field labelled ${String(label)} here; the labels are: ${labels.join(', ') || 'none'}`)
}

/** The element with data-testid `id`, or null. */
export const byTestId = <T extends HTMLElement = HTMLElement>(scope: Scope, id: string) => scope.querySelector<T>(`[data-testid="${id}"]`)

/** The text of the element with data-testid `id` (undefined when it is not there). */
export const textOf = (scope: Scope, id: string) => byTestId(scope, id)?.textContent ?? undefined
