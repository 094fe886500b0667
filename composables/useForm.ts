import * as v from 'valibot'

/** The first message of a valibot schema for a value, or null when it passes. */
export function fieldError(schema: v.GenericSchema, value: unknown): string | null {
  const result = v.safeParse(schema, value)
  return result.success ? null : result.issues[0]?.message ?? 'Invalid value'
}

/** A redirect target from a query value: only paths on this site. */
export function safeRedirect(value: unknown, fallback = '/'): string {
  const target = Array.isArray(value) ? value[0] : value
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//') ? target : fallback
}
