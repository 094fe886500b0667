import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { PasswordSchema } from '../../shared/schemas/auth'
import { CommentBodyInputSchema } from '../../shared/schemas/comments'
import { ImageSearchUrlSchema } from '../../shared/schemas/removal'
import { ReportSchema } from '../../shared/schemas/reports'
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

// 😀 is one character and two UTF-16 units: each limit counts characters, as descriptions always did.
describe('text limits in characters', () => {
  const emoji = (count: number) => '😀'.repeat(count)

  it('takes a password of 8 to 256 characters', () => {
    const message = 'Password must be 8 to 256 characters'
    expect(issues(PasswordSchema, emoji(4))).toEqual([{ path: null, message }])
    expect(issues(PasswordSchema, emoji(7))).toEqual([{ path: null, message }])
    expect(issues(PasswordSchema, emoji(8))).toEqual([])
    expect(issues(PasswordSchema, emoji(256))).toEqual([])
    expect(issues(PasswordSchema, emoji(257))).toEqual([{ path: null, message }])
  })

  it('takes a comment of up to 2000 characters and report details of up to 1000', () => {
    expect(issues(CommentBodyInputSchema, { body: emoji(2000) })).toEqual([])
    expect(issues(CommentBodyInputSchema, { body: emoji(2001) })).toEqual([{ path: 'body', message: 'Comment must be at most 2000 characters' }])
    expect(issues(ReportSchema, { reason: 'spam', details: emoji(1000) })).toEqual([])
    expect(issues(ReportSchema, { reason: 'spam', details: emoji(1001) })).toEqual([{ path: 'details', message: 'Details must be at most 1000 characters' }])
  })
})
