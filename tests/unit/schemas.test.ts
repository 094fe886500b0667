import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { ImageSearchUrlSchema } from '../../shared/schemas/removal'
import { UploadFieldsSchema } from '../../shared/schemas/uploads'

/** Every issue of a failed parse, as `data.issues` lists them (server/utils/validation.ts). */
function issues(schema: v.GenericSchema, input: unknown) {
  return (v.safeParse(schema, input).issues ?? []).map(issue => ({ path: v.getDotPath(issue), message: issue.message }))
}

describe('an http(s) address field', () => {
  it('lists a missing or empty one once', () => {
    expect(issues(ImageSearchUrlSchema, {})).toEqual([{ path: 'imageUrl', message: 'Invalid image URL' }])
    expect(issues(ImageSearchUrlSchema, { imageUrl: '  ' })).toEqual([{ path: 'imageUrl', message: 'Invalid image URL' }])
    expect(issues(UploadFieldsSchema, { upload_type: 'link', description: 'x' })).toEqual([{ path: 'external_url', message: 'Invalid external URL' }])
    expect(issues(ImageSearchUrlSchema, { imageUrl: 'ftp://example.com/a.png' })).toEqual([{ path: 'imageUrl', message: 'Invalid image URL' }])
  })
})
