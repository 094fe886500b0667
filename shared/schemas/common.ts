import * as v from 'valibot'

/** The error body of every 4xx/5xx (docs/behaviour.md, Errors). */
export const ErrorSchema = v.object({
  statusCode: v.pipe(v.number(), v.integer()),
  statusMessage: v.string(),
  message: v.string(),
  data: v.optional(v.record(v.string(), v.unknown())),
})

export const UuidSchema = v.pipe(v.string(), v.uuid())

export const IdParamsSchema = v.object({ id: v.pipe(v.string('Invalid ID'), v.uuid('Invalid ID')) })

export const SuccessSchema = v.object({ success: v.literal(true) })

/**
 * Text lengths count characters as people do, in code points (`[...text].length`): an
 * emoji is one character, where valibot's minLength/maxLength count UTF-16 units and
 * make it two (a 4-emoji password passed as 8 characters). JSON Schema's
 * minLength/maxLength count code points too, so the OpenAPI document states the limit
 * as it is checked. Spread into a pipe: `v.pipe(v.string(), ...maxCharacters(500, '…'))`.
 */
export function maxCharacters(max: number, message: string) {
  return [
    v.check<string, string>(text => text.length <= max || [...text].length <= max, message),
    v.metadata<string, { maxLength: number }>({ maxLength: max }),
  ] as const
}

/** At least `min` characters, counted as maxCharacters counts them. */
export function minCharacters(min: number, message: string) {
  return [
    v.check<string, string>(text => [...text].length >= min, message),
    v.metadata<string, { minLength: number }>({ minLength: min }),
  ] as const
}
