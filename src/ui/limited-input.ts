/**
 * Props for a name input with a length limit: the browser's maxLength, plus a clear error notice
 * when typing or pasting would go past it (maxLength alone cuts the text silently).
 */
import type { ClipboardEvent, KeyboardEvent } from 'react'
import { notify } from '../lib/notify.ts'

export function limitedInputProps(max: number, message: string) {
  const wouldExceed = (el: HTMLInputElement, added: number) =>
    el.value.length - Math.abs((el.selectionEnd ?? 0) - (el.selectionStart ?? 0)) + added > max
  const warn = () => notify.error(message, { id: message })
  return {
    maxLength: max,
    onPaste: (e: ClipboardEvent<HTMLInputElement>) => {
      if (wouldExceed(e.currentTarget, e.clipboardData.getData('text').length)) warn()
    },
    onKeyDown: (e: KeyboardEvent<HTMLInputElement>) => {
      if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey && wouldExceed(e.currentTarget, 1)) warn()
    },
  }
}
