import * as v from 'valibot'
import { nextTick } from 'vue'
import { plainMessage } from './useFormat'

/** The first message of a valibot schema for a value, or null when it passes. */
export function fieldError(schema: v.GenericSchema, value: unknown): string | null {
  const result = v.safeParse(schema, value)
  return result.success ? null : plainMessage(result.issues[0]?.message ?? 'Invalid value')
}

/**
 * A redirect target from a query value: only paths on this site, read the way
 * a browser reads them (a backslash counts as a slash, tabs and newlines are
 * dropped), so `/\evil.example` cannot leave the site; anything else is `fallback`.
 */
export function safeRedirect(value: unknown, fallback = '/'): string {
  const target = Array.isArray(value) ? value[0] : value
  if (typeof target !== 'string' || !target.startsWith('/')) return fallback
  const base = 'http://this-site.invalid'
  try {
    const url = new URL(target, base)
    const path = `${url.pathname}${url.search}${url.hash}`
    const unusual = target.includes('\\') || [...target].some(char => char < ' ')
    return url.origin === base && !path.startsWith('//') && !unusual ? path : fallback
  }
  catch {
    return fallback
  }
}

/**
 * Puts the keyboard on the first field of `form` marked invalid, once the render that
 * marks it is done: a form refused on submit says so where a screen reader is, as the
 * field's error is in its description (FormField).
 */
export async function focusFirstInvalid(form: EventTarget | null | undefined): Promise<void> {
  await nextTick()
  if (form instanceof HTMLElement) form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
}
