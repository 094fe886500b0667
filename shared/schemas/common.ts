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
