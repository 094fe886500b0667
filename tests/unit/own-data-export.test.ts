import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { AccountExportSchema } from '../../shared/schemas/own-data'
import { sql } from '../../server/database/sql'
import { registerAccount } from '../../server/services/accounts'
import { exportAccount } from '../../server/services/own-data'
import { toActor } from '../../server/services/sessions'
import { createSeeder } from '../../scripts/lib/seed'
import { testDatabase } from '../support/database'

const SITE = 'https://dif.example'

describe('the data export, written page by page', () => {
  it('is one valid JSON document with every upload (tags kept) and vote, whatever the page size', async () => {
    const db = await testDatabase()
    const user = await registerAccount(db, { email: 'exporter@unit.test', username: 'exporter', password: 'correct horse battery' }, false)
    const other = await registerAccount(db, { email: 'other@unit.test', username: 'other', password: 'correct horse battery' }, false)
    const actor = toActor({ id: user.id, username: user.username, email: user.email, is_admin: 0, email_verified: 0, shadow_banned: 0 }, [])
    const seeder = createSeeder(db)
    // Five uploads, two of them created in the same millisecond (the page key is creation time, then id).
    const uploads: string[] = []
    for (let i = 0; i < 5; i++) {
      uploads.push(await seeder.upload({ userId: user.id, description: `Mine ${i}`, tags: i % 2 ? ['Export Cats', `export-${i}`] : [], createdAt: `2026-01-0${i < 3 ? 1 : i}T00:00:00.000Z`, uploadType: i === 0 ? 'image' : 'link', filename: i === 0 ? 'a.png' : null, isPrivate: i === 4 }))
    }
    const theirs: string[] = []
    for (let i = 0; i < 7; i++) theirs.push(await seeder.upload({ userId: other.id }))
    for (const [i, id] of theirs.entries()) await seeder.vote(user.id, id, i % 3 ? 'fucks' : 'does_not_fuck')
    await seeder.vote(other.id, uploads[0]!, 'fucks')

    const documents: string[] = []
    for (const pageRows of [1, 2, 3, 500]) {
      let text = ''
      for await (const piece of exportAccount(db, actor, SITE, { now: Date.parse('2026-02-01T00:00:00.000Z'), pageRows })) text += piece
      documents.push(text)
    }
    expect(new Set(documents).size).toBe(1)
    const data = v.parse(AccountExportSchema, JSON.parse(documents[0]!))

    const expectedUploads = await db.all<{ id: string }>(sql`SELECT id FROM uploads WHERE user_id = ${user.id} ORDER BY created_at, id`)
    expect(data.uploads.map(upload => upload.id)).toEqual(expectedUploads.map(row => row.id))
    expect(data.uploads.map(upload => upload.id).sort()).toEqual([...uploads].sort())
    const byId = new Map(data.uploads.map(upload => [upload.id, upload]))
    expect(byId.get(uploads[1]!)!.tags).toEqual(['Export Cats', 'export-1'])
    expect(byId.get(uploads[2]!)!.tags).toEqual([])
    expect(byId.get(uploads[4]!)!.isPrivate).toBe(true)
    expect(byId.get(uploads[0]!)!.media).toEqual({ url: `${SITE}/api/image/${uploads[0]}`, thumbnailUrl: `${SITE}/api/image/${uploads[0]}?size=thumb`, mimeType: 'image/png', width: null, height: null, sizeBytes: null })
    expect(data.votes.map(vote => vote.uploadId)).toEqual([...theirs].sort())
    expect(data.votes.find(vote => vote.uploadId === theirs[0])!.vote).toBe('does_not_fuck')
    expect(data.exportedAt).toBe('2026-02-01T00:00:00.000Z')
    expect(data.profile).toEqual({ id: user.id, username: 'exporter', email: 'exporter@unit.test', createdAt: expect.any(String), isAdmin: false, mfaEnabled: false, hasPassword: true })
    expect([data.apiTokens, data.linkedAccounts, data.passkeys, data.reports]).toEqual([[], [], [], []])
  })

  it('is valid JSON for an account with nothing', async () => {
    const db = await testDatabase()
    const user = await registerAccount(db, { email: 'empty@unit.test', username: 'empty', password: 'correct horse battery' }, false)
    const actor = toActor({ id: user.id, username: user.username, email: user.email, is_admin: 0, email_verified: 0, shadow_banned: 0 }, [])
    let text = ''
    for await (const piece of exportAccount(db, actor, SITE)) text += piece
    const data = v.parse(AccountExportSchema, JSON.parse(text))
    expect([data.uploads, data.votes, data.sessions]).toEqual([[], [], []])
  })
})
