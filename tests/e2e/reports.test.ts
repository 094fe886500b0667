import { randomUUID } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { expectMatchesOpenApi } from '../support/openapi'
import { makeAdmin, seedUpload, serverDatabase } from '../support/seed'

let admin: TestUser
let otherAdmin: TestUser
let member: TestUser
let owner: TestUser

beforeAll(async () => {
  [admin, otherAdmin, member, owner] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()])
  await Promise.all([makeAdmin(admin), makeAdmin(otherAdmin)])
})

const fingerprint = () => `fp-${randomUUID()}`
const report = (uploadId: string, body: unknown, token?: string) => api(`/api/upload/${uploadId}/report`, { method: 'POST', body, token })
const queue = (query: string, token?: string) => api(`/api/admin/reports${query}`, { token })
const claim = (id: string, token?: string) => api(`/api/admin/reports/${id}/claim`, { method: 'POST', token })
const resolve = (id: string, body: unknown, token?: string) => api(`/api/admin/reports/${id}/resolve`, { method: 'POST', body, token })
const groupOf = async (uploadId: string, status = 'open') =>
  (await queue(`?status=${status}&limit=100`, admin.token)).body.reports.find((entry: { upload: { id: string } | null, removedUpload: { id: string } | null }) => (entry.upload ?? entry.removedUpload)!.id === uploadId)
const reportRows = (uploadId: string) => serverDatabase().db.all<{ status: string, claimed_by: string | null, resolution: string | null }>(
  sql`SELECT status, claimed_by, resolution FROM reports WHERE upload_id = ${uploadId} ORDER BY created_at, id`)

describe('POST /api/upload/{id}/report', () => {
  it('files a report for an account and answers 201 with it', async () => {
    const uploadId = await seedUpload(owner)
    const response = await report(uploadId, { reason: 'spam', details: '  Buy cheap stuff  ' }, member.token)
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ report: { id: expect.any(String), uploadId, reason: 'spam', status: 'open', createdAt: expect.any(String) } })
    await expectMatchesOpenApi('post', '/api/upload/{id}/report', response)
    expect(Date.parse(response.body.report.createdAt)).toBeLessThanOrEqual(Date.now())
    const stored = await serverDatabase().db.get<{ reporter_id: string, details: string, ip_hash: string | null }>(sql`SELECT reporter_id, details, ip_hash FROM reports WHERE id = ${response.body.report.id}`)
    expect(stored).toEqual({ reporter_id: member.id, details: 'Buy cheap stuff', ip_hash: null })
  })

  it('files an anonymous report by fingerprint, storing only the keyed IP hash', async () => {
    const uploadId = await seedUpload(owner)
    const print = fingerprint()
    const response = await report(uploadId, { reason: 'copyright', clientFingerprint: print })
    expect(response.status).toBe(201)
    expect(response.body.report).toMatchObject({ uploadId, reason: 'copyright', status: 'open' })
    const stored = (await serverDatabase().db.get<{ reporter_id: string | null, ip_hash: string, fingerprint: string }>(sql`SELECT reporter_id, ip_hash, fingerprint FROM reports WHERE id = ${response.body.report.id}`))!
    expect(stored.reporter_id).toBeNull()
    expect(stored.fingerprint).toBe(print)
    expect(stored.ip_hash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('answers 409 Already reported for a second unresolved report by the same reporter', async () => {
    const uploadId = await seedUpload(owner)
    expect((await report(uploadId, { reason: 'spam' }, member.token)).status).toBe(201)
    const again = await report(uploadId, { reason: 'other' }, member.token)
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'Already reported' })
    // Anonymous: the same fingerprint, or the same IP with another fingerprint.
    const print = fingerprint()
    expect((await report(uploadId, { reason: 'spam', clientFingerprint: print })).status).toBe(201)
    expect((await report(uploadId, { reason: 'spam', clientFingerprint: print })).body.message).toBe('Already reported')
    expect((await report(uploadId, { reason: 'spam', clientFingerprint: fingerprint() })).status).toBe(409)
    // Another account may still report it.
    expect((await report(uploadId, { reason: 'harassment' }, owner.token)).status).toBe(201)
  })

  it('lets the reporter report again once the earlier report is resolved', async () => {
    const uploadId = await seedUpload(owner)
    const first = await report(uploadId, { reason: 'spam' }, member.token)
    expect((await resolve(first.body.report.id, { action: 'dismiss' }, admin.token)).status).toBe(200)
    expect((await report(uploadId, { reason: 'spam' }, member.token)).status).toBe(201)
  })

  it('holds one report per reporter under 10 parallel tries', async () => {
    const uploadId = await seedUpload(owner)
    const accountTries = await Promise.all(Array.from({ length: 10 }, () => report(uploadId, { reason: 'spam' }, member.token)))
    expect(accountTries.map(r => r.status).sort()).toEqual([201, ...Array(9).fill(409)])
    const print = fingerprint()
    const anonymousTries = await Promise.all(Array.from({ length: 10 }, () => report(uploadId, { reason: 'other', clientFingerprint: print })))
    expect(anonymousTries.map(r => r.status).sort()).toEqual([201, ...Array(9).fill(409)])
    expect(await reportRows(uploadId)).toHaveLength(2)
  })

  it('answers 404 for an unknown, malformed or private upload, and lets owner and admins report a private one', async () => {
    const missing = await report(randomUUID(), { reason: 'spam' }, member.token)
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ statusCode: 404, statusMessage: 'Not Found', message: 'Upload not found' })
    expect((await report('not-an-id', { reason: 'spam' }, member.token)).status).toBe(404)
    const hidden = await seedUpload(owner, { isPrivate: true })
    expect((await report(hidden, { reason: 'spam' }, member.token)).status).toBe(404)
    expect((await report(hidden, { reason: 'spam', clientFingerprint: fingerprint() })).status).toBe(404)
    expect((await report(hidden, { reason: 'spam' }, admin.token)).status).toBe(201)
  })

  it('answers 400 for a bad reason, long details or a missing fingerprint', async () => {
    const uploadId = await seedUpload(owner)
    const bad = await report(uploadId, { reason: 'boring' }, member.token)
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ statusCode: 400, statusMessage: 'Bad Request', message: 'Invalid reason' })
    expect((await report(uploadId, {}, member.token)).body.message).toBe('Invalid reason')
    expect((await report(uploadId, { reason: 'other', details: 'x'.repeat(1001) }, member.token)).body.message).toBe('Details must be at most 1000 characters')
    const anonymous = await report(uploadId, { reason: 'spam' })
    expect(anonymous.status).toBe(400)
    expect(anonymous.body.message).toBe('Invalid client fingerprint')
    expect((await report(uploadId, { reason: 'spam', clientFingerprint: 'short' })).body.message).toBe('Invalid client fingerprint')
    expect(await reportRows(uploadId)).toEqual([])
  })
})

describe('GET /api/admin/reports', () => {
  it('groups the reports of one upload with every reason and report, the most severe reason leading', async () => {
    const uploadId = await seedUpload(owner, { description: 'Reported thrice' })
    const spam = await report(uploadId, { reason: 'spam', details: 'Buy cheap stuff' }, member.token)
    const anonymous = await report(uploadId, { reason: 'other', clientFingerprint: fingerprint() })
    const minor = await report(uploadId, { reason: 'minor_safety', details: 'Endangers a minor' }, owner.token)
    const response = await queue('?limit=100', admin.token)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    await expectMatchesOpenApi('get', '/api/admin/reports', response)
    expect(response.body).toMatchObject({ page: 1, limit: 100, total: expect.any(Number) })
    const entry = response.body.reports.find((group: { upload: { id: string } }) => group.upload.id === uploadId)
    expect(entry).toEqual({
      id: minor.body.report.id,
      targetType: 'upload',
      comment: null,
      upload: expect.objectContaining({ id: uploadId, user_id: owner.id, username: owner.username, description: 'Reported thrice', tags: [], stats: expect.any(Object) }),
      removedUpload: null,
      reason: 'minor_safety',
      details: 'Endangers a minor',
      status: 'open',
      reportCount: 3,
      reasons: [{ reason: 'minor_safety', count: 1 }, { reason: 'spam', count: 1 }, { reason: 'other', count: 1 }],
      items: [
        { id: spam.body.report.id, reason: 'spam', details: 'Buy cheap stuff', reporter: { id: member.id, username: member.username }, createdAt: spam.body.report.createdAt },
        { id: anonymous.body.report.id, reason: 'other', details: null, reporter: null, createdAt: anonymous.body.report.createdAt },
        { id: minor.body.report.id, reason: 'minor_safety', details: 'Endangers a minor', reporter: { id: owner.id, username: owner.username }, createdAt: minor.body.report.createdAt },
      ],
      claimedBy: null,
      createdAt: spam.body.report.createdAt,
    })
    expect(response.body.reports.filter((group: { upload: { id: string } }) => group.upload.id === uploadId)).toHaveLength(1)
  })

  it('puts groups with a more severe reason first, then the oldest, and counts each reason', async () => {
    const [oldSpam, mixed, illegal, newSpam] = await Promise.all([1, 2, 3, 4].map(() => seedUpload(owner)))
    await report(oldSpam!, { reason: 'spam' }, member.token)
    await report(mixed!, { reason: 'spam' }, member.token)
    await report(mixed!, { reason: 'spam' }, otherAdmin.token)
    await report(illegal!, { reason: 'illegal' }, member.token)
    await report(mixed!, { reason: 'minor_safety' }, owner.token)
    await report(newSpam!, { reason: 'spam' }, member.token)
    await report(newSpam!, { reason: 'other' }, owner.token)
    const { body } = await queue('?limit=100', admin.token)
    const mine = body.reports.filter((group: { upload: { id: string } }) => [oldSpam, mixed, illegal, newSpam].includes(group.upload.id))
    expect(mine.map((group: { upload: { id: string } }) => group.upload.id)).toEqual([mixed, illegal, oldSpam, newSpam])
    expect(mine.map((group: { reason: string, reasons: unknown }) => [group.reason, group.reasons])).toEqual([
      ['minor_safety', [{ reason: 'minor_safety', count: 1 }, { reason: 'spam', count: 2 }]],
      ['illegal', [{ reason: 'illegal', count: 1 }]],
      ['spam', [{ reason: 'spam', count: 1 }]],
      ['spam', [{ reason: 'spam', count: 1 }, { reason: 'other', count: 1 }]],
    ])
    // Across the whole queue, severity never rises further down, and within one severity the groups get younger.
    const SEVERITY = ['minor_safety', 'illegal', 'harassment', 'copyright', 'spam', 'other']
    const keys = body.reports.map((group: { reason: string, createdAt: string }) => [SEVERITY.indexOf(group.reason), group.createdAt] as const)
    expect([...keys].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]))).toEqual(keys)
  })

  it('keeps each group exact under parallel reports, claims and resolves', async () => {
    const uploadId = await seedUpload(owner)
    const reporters = await Promise.all(Array.from({ length: 12 }, () => registerUser()))
    const reasons = ['spam', 'other', 'copyright', 'illegal'] as const
    const first = await report(uploadId, { reason: 'spam' }, member.token)
    // Reports arrive while one admin claims the group and then resolves it.
    const filing = Promise.all(reporters.map((who, i) => report(uploadId, { reason: reasons[i % reasons.length] }, who.token)))
    const handling = claim(first.body.report.id, admin.token).then(() => resolve(first.body.report.id, { action: 'dismiss' }, admin.token))
    const [filed, handled] = await Promise.all([filing, handling])
    expect(filed.map(response => response.status)).toEqual(Array(12).fill(201))
    expect(handled.status).toBe(200)
    const { db } = serverDatabase()
    const kept = await db.all(sql`SELECT status, reason_rank, report_count, first_at FROM report_groups WHERE upload_id = ${uploadId} ORDER BY status`)
    const counted = await db.all<{ status: string, reason_rank: number, report_count: number, first_at: string }>(sql`SELECT status, min(CASE reason WHEN 'minor_safety' THEN 0 WHEN 'illegal' THEN 1 WHEN 'harassment' THEN 2
        WHEN 'copyright' THEN 3 WHEN 'spam' THEN 4 ELSE 5 END) AS reason_rank, count(*) AS report_count, min(created_at) AS first_at
      FROM reports WHERE upload_id = ${uploadId} GROUP BY status ORDER BY status`)
    expect(kept).toEqual(counted.map(row => ({ ...row, report_count: Number(row.report_count) })))
    const open = await groupOf(uploadId)
    const resolved = await groupOf(uploadId, 'resolved')
    expect((open?.reportCount ?? 0) + resolved.reportCount).toBe(13)
  })

  it('filters by status and pages', async () => {
    const uploadId = await seedUpload(owner)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    await claim(filed.body.report.id, admin.token)
    expect(await groupOf(uploadId, 'open')).toBeUndefined()
    expect(await groupOf(uploadId, 'claimed')).toMatchObject({ status: 'claimed', claimedBy: { id: admin.id, username: admin.username }, reportCount: 1 })
    const paged = await queue('?status=claimed&limit=1&page=1', admin.token)
    expect(paged.body.reports).toHaveLength(1)
    expect(paged.body.limit).toBe(1)
    expect((await queue('?limit=1000', admin.token)).body.limit).toBe(100)
  })

  it('answers 401, 403 and 400 where they apply', async () => {
    expect((await queue('')).status).toBe(401)
    const forbidden = await queue('', member.token)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toEqual({ statusCode: 403, statusMessage: 'Forbidden', message: 'Admin access required' })
    expect((await queue('?status=closed', admin.token)).body).toMatchObject({ statusCode: 400, message: 'Invalid status' })
    expect((await queue('?page=0', admin.token)).body.message).toBe('Invalid page')
  })
})

describe('POST /api/admin/reports/{id}/claim', () => {
  it('claims every open report of the upload, and again changes nothing', async () => {
    const uploadId = await seedUpload(owner)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    await report(uploadId, { reason: 'spam' }, owner.token)
    const response = await claim(filed.body.report.id, admin.token)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, uploadId, status: 'claimed', claimedBy: { id: admin.id, username: admin.username }, reportCount: 2 })
    await expectMatchesOpenApi('post', '/api/admin/reports/{id}/claim', response)
    expect(await reportRows(uploadId)).toEqual([
      { status: 'claimed', claimed_by: admin.id, resolution: null },
      { status: 'claimed', claimed_by: admin.id, resolution: null },
    ])
    expect((await claim(filed.body.report.id, admin.token)).status).toBe(200)
  })

  it('answers 409 when another admin holds the claim or the report is resolved', async () => {
    const uploadId = await seedUpload(owner)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    await claim(filed.body.report.id, admin.token)
    const taken = await claim(filed.body.report.id, otherAdmin.token)
    expect(taken.status).toBe(409)
    expect(taken.body).toEqual({ statusCode: 409, statusMessage: 'Conflict', message: 'Report claimed by another admin' })
    expect((await resolve(filed.body.report.id, { action: 'dismiss' }, otherAdmin.token)).body.message).toBe('Report claimed by another admin')
    await resolve(filed.body.report.id, { action: 'dismiss' }, admin.token)
    const done = await claim(filed.body.report.id, admin.token)
    expect(done.status).toBe(409)
    expect(done.body.message).toBe('Report already resolved')
  })

  it('lets one of two admins claiming at once win', async () => {
    const uploadId = await seedUpload(owner)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    const tries = await Promise.all([admin, otherAdmin, admin, otherAdmin].map(who => claim(filed.body.report.id, who.token)))
    const winners = new Set((await reportRows(uploadId)).map(row => row.claimed_by))
    expect(winners.size).toBe(1)
    const winner = [...winners][0]
    tries.forEach((response, i) => expect(response.status).toBe([admin, otherAdmin, admin, otherAdmin][i]!.id === winner ? 200 : 409))
  })

  it('answers 401, 403, 404 and 400 where they apply', async () => {
    const uploadId = await seedUpload(owner)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    expect((await claim(filed.body.report.id)).status).toBe(401)
    expect((await claim(filed.body.report.id, member.token)).status).toBe(403)
    const missing = await claim(randomUUID(), admin.token)
    expect(missing.status).toBe(404)
    expect(missing.body.message).toBe('Report not found')
    expect((await claim('nope', admin.token)).body).toMatchObject({ statusCode: 400, message: 'Invalid ID' })
  })
})

describe('POST /api/admin/reports/{id}/resolve', () => {
  it('dismisses every unresolved report of the upload', async () => {
    const uploadId = await seedUpload(owner)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    await report(uploadId, { reason: 'other', clientFingerprint: fingerprint() })
    const response = await resolve(filed.body.report.id, { action: 'dismiss', note: 'Fine by the rules' }, admin.token)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, uploadId, action: 'dismiss', reportCount: 2 })
    await expectMatchesOpenApi('post', '/api/admin/reports/{id}/resolve', response)
    expect(await reportRows(uploadId)).toEqual([
      { status: 'resolved', claimed_by: admin.id, resolution: 'dismiss' },
      { status: 'resolved', claimed_by: admin.id, resolution: 'dismiss' },
    ])
    expect(await groupOf(uploadId, 'resolved')).toMatchObject({ status: 'resolved', reportCount: 2, claimedBy: { id: admin.id } })
    expect((await api(`/api/upload/${uploadId}`)).status).toBe(200)
    const again = await resolve(filed.body.report.id, { action: 'dismiss' }, admin.token)
    expect(again.status).toBe(409)
    expect(again.body.message).toBe('Report already resolved')
  })

  it('removes the upload, keeping its reports listed with its tombstone', async () => {
    const uploadId = await seedUpload(owner, { description: 'Reported and removed' })
    const filed = await report(uploadId, { reason: 'illegal' }, member.token)
    await claim(filed.body.report.id, admin.token)
    const response = await resolve(filed.body.report.id, { action: 'remove_upload' }, admin.token)
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ success: true, uploadId, action: 'remove_upload', reportCount: 1 })
    const gone = await api(`/api/upload/${uploadId}`)
    expect(gone.status).toBe(410)
    expect(gone.body).toEqual({ statusCode: 410, statusMessage: 'Gone', message: 'Upload removed' })
    expect(await reportRows(uploadId)).toEqual([{ status: 'resolved', claimed_by: admin.id, resolution: 'remove_upload' }])
    const group = await groupOf(uploadId, 'resolved')
    expect(group).toMatchObject({ upload: null, reportCount: 1, removedUpload: {
      id: uploadId, description: 'Reported and removed', uploader: { id: owner.id, username: owner.username }, upload_type: 'image',
      removed_at: expect.any(String), removed_by: 'admin', reason: 'illegal',
    } })
    await expectMatchesOpenApi('get', '/api/admin/reports', await queue('?status=resolved&limit=100', admin.token))
  })

  it('shadow-bans the uploader', async () => {
    const uploader = await registerUser()
    const uploadId = await seedUpload(uploader)
    const filed = await report(uploadId, { reason: 'harassment' }, member.token)
    expect((await resolve(filed.body.report.id, { action: 'shadow_ban_uploader', note: 'Repeat offender' }, admin.token)).status).toBe(200)
    const users = await api(`/api/admin/users?q=${uploader.username}`, { token: admin.token })
    expect(users.body.users[0].shadowBanned).toBe(true)
    expect(await reportRows(uploadId)).toEqual([{ status: 'resolved', claimed_by: admin.id, resolution: 'shadow_ban_uploader' }])
  })

  it('changes nothing when the action fails (an admin\'s own upload cannot shadow-ban them)', async () => {
    const uploadId = await seedUpload(admin)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    const response = await resolve(filed.body.report.id, { action: 'shadow_ban_uploader' }, admin.token)
    expect(response.status).toBe(400)
    expect(response.body.message).toBe('You cannot shadow-ban yourself')
    expect(await reportRows(uploadId)).toEqual([{ status: 'open', claimed_by: null, resolution: null }])
  })

  it('answers 401, 403, 404 and 400 where they apply', async () => {
    const uploadId = await seedUpload(owner)
    const filed = await report(uploadId, { reason: 'spam' }, member.token)
    const id = filed.body.report.id
    expect((await resolve(id, { action: 'dismiss' })).status).toBe(401)
    expect((await resolve(id, { action: 'dismiss' }, member.token)).status).toBe(403)
    expect((await resolve(randomUUID(), { action: 'dismiss' }, admin.token)).status).toBe(404)
    expect((await resolve(id, { action: 'delete' }, admin.token)).body).toMatchObject({ statusCode: 400, message: 'Invalid action' })
    expect((await resolve(id, {}, admin.token)).body.message).toBe('Invalid action')
    expect((await resolve(id, { action: 'dismiss', note: 'x'.repeat(1001) }, admin.token)).body.message).toBe('Note must be at most 1000 characters')
    expect(await reportRows(uploadId)).toEqual([{ status: 'open', claimed_by: null, resolution: null }])
  })
})
