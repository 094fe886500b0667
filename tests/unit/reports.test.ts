import { describe, expect, it } from 'vitest'
import type { Executor } from '../../server/database/port'
import { sql } from '../../server/database/sql'
import { registerAccount } from '../../server/services/accounts'
import { fsMediaStore } from '../../server/services/media-store'
import { listModerationLog } from '../../server/services/modlog'
import { claimReport, createReport, listReports, resolveReport } from '../../server/services/reports'
import { REPORT_SEVERITY, type ReportReason } from '../../shared/utils/report-kinds'
import { toActor, type Actor } from '../../server/services/sessions'
import { createSeeder } from '../../scripts/lib/seed'
import { testDatabase } from '../support/database'

async function account(db: Executor, name: string, isAdmin = false): Promise<Actor> {
  const user = await registerAccount(db, { email: `${name}@unit.test`, username: name, password: 'correct horse battery' }, isAdmin)
  return toActor({ id: user.id, username: user.username, email: user.email, is_admin: isAdmin ? 1 : 0, email_verified: 0, shadow_banned: 0 }, [])
}

async function setUp() {
  const db = await testDatabase()
  const [admin, owner, alice, bob] = [await account(db, 'admin', true), await account(db, 'owner'), await account(db, 'alice'), await account(db, 'bob')]
  const seeder = createSeeder(db)
  return { db, admin, owner, alice, bob, upload: () => seeder.upload({ userId: owner.id }) }
}

const visitor = (ip: string, clientFingerprint: string) => ({ actor: null, clientFingerprint, visitor: { ip, userAgent: undefined, secret: 'unit-secret' } })

describe('the report queue', () => {
  it('groups an upload\'s reports per status, led by its gravest report', async () => {
    const { db, admin, alice, bob, upload } = await setUp()
    const [busy, quiet] = [await upload(), await upload()]
    const first = await createReport(db, { actor: alice }, busy, { reason: 'illegal', details: 'First' })
    await createReport(db, { actor: bob }, busy, { reason: 'spam' })
    await createReport(db, visitor('203.0.113.1', 'fingerprint-1'), busy, { reason: 'other' })
    await createReport(db, { actor: alice }, quiet, { reason: 'copyright' })
    // Reports filed within one millisecond share created_at: make the first one unmistakably first.
    await db.run(sql`UPDATE reports SET created_at = '2000-01-01T00:00:00.000Z' WHERE id = ${first.report.id}`)
    const open = await listReports(db, { status: 'open', page: 1, limit: 20 })
    expect(open.total).toBe(2)
    expect(open.reports.map(group => [group.upload?.id, group.reportCount, group.id, group.reason, group.details])).toEqual([
      [busy, 3, first.report.id, 'illegal', 'First'],
      [quiet, 1, expect.any(String), 'copyright', null],
    ])
    await claimReport(db, admin, first.report.id)
    expect((await listReports(db, { status: 'open', page: 1, limit: 20 })).total).toBe(1)
    expect((await listReports(db, { status: 'claimed', page: 1, limit: 20 })).reports).toEqual([
      expect.objectContaining({ id: first.report.id, reportCount: 3, claimedBy: { id: admin.id, username: 'admin' } }),
    ])
  })

  it('knows an anonymous reporter by fingerprint or by IP hash, never storing the IP', async () => {
    const { db, upload } = await setUp()
    const id = await upload()
    await createReport(db, visitor('203.0.113.7', 'fingerprint-a'), id, { reason: 'spam' })
    await expect(createReport(db, visitor('203.0.113.8', 'fingerprint-a'), id, { reason: 'spam' })).rejects.toMatchObject({ statusCode: 409, message: 'Already reported' })
    await expect(createReport(db, visitor('203.0.113.7', 'fingerprint-b'), id, { reason: 'spam' })).rejects.toMatchObject({ statusCode: 409 })
    await expect(createReport(db, { actor: null, clientFingerprint: undefined, visitor: visitor('203.0.113.9', 'x').visitor }, id, { reason: 'spam' }))
      .rejects.toMatchObject({ statusCode: 400, message: 'Invalid client fingerprint' })
    const stored = await db.all<{ ip_hash: string }>(sql`SELECT ip_hash FROM reports WHERE upload_id = ${id}`)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.ip_hash).not.toContain('203.0.113.7')
  })

  it('resolves and logs in one transaction: a failed action leaves neither', async () => {
    const { db, admin, alice } = await setUp()
    const own = await createSeeder(db).upload({ userId: admin.id })
    const filed = await createReport(db, { actor: alice }, own, { reason: 'spam' })
    await expect(resolveReport(db, admin, filed.report.id, { action: 'shadow_ban_uploader' }, fsMediaStore('/nonexistent-media')))
      .rejects.toMatchObject({ statusCode: 400, message: 'You cannot shadow-ban yourself' })
    expect(await db.all(sql`SELECT status FROM reports WHERE upload_id = ${own}`)).toEqual([{ status: 'open' }])
    expect((await listModerationLog(db, { page: 1, limit: 10 })).total).toBe(0)
    await resolveReport(db, admin, filed.report.id, { action: 'dismiss', note: 'Fine' }, fsMediaStore('/nonexistent-media'))
    expect((await listModerationLog(db, { page: 1, limit: 10 })).entries).toEqual([expect.objectContaining({
      actor: { id: admin.id, username: 'admin' }, action: 'report_resolved', targetType: 'report', targetId: filed.report.id, note: 'dismiss: Fine',
    })])
  })

  it('keeps log entries when their actor is deleted, named, with actor.id null', async () => {
    const { db, admin, alice, upload } = await setUp()
    const filed = await createReport(db, { actor: alice }, await upload(), { reason: 'spam' })
    await claimReport(db, admin, filed.report.id)
    await db.run(sql`DELETE FROM users WHERE id = ${admin.id}`)
    expect((await listModerationLog(db, { page: 1, limit: 10 })).entries).toEqual([expect.objectContaining({
      actor: { id: null, username: 'admin' }, action: 'report_claimed', targetLabel: 'spam', targetExists: true,
    })])
  })
})

describe('the kept report groups', () => {
  /** The groups as the triggers keep them, and as counting the reports gives them. */
  async function keptAndCounted(db: Executor) {
    const kept = await db.all(sql`SELECT upload_id, status, reason_rank, report_count, first_at FROM report_groups ORDER BY upload_id, status`)
    const reports = await db.all<{ upload_id: string, status: string, reason: ReportReason, created_at: string }>(sql`SELECT upload_id, status, reason, created_at FROM reports`)
    const groups = new Map<string, { upload_id: string, status: string, reason_rank: number, report_count: number, first_at: string }>()
    for (const r of reports) {
      const key = `${r.upload_id} ${r.status}`
      const group = groups.get(key) ?? { upload_id: r.upload_id, status: r.status, reason_rank: 99, report_count: 0, first_at: r.created_at }
      groups.set(key, { ...group, reason_rank: Math.min(group.reason_rank, REPORT_SEVERITY.indexOf(r.reason)), report_count: group.report_count + 1, first_at: group.first_at < r.created_at ? group.first_at : r.created_at })
    }
    const counted = [...groups.values()].sort((a, b) => a.upload_id.localeCompare(b.upload_id) || a.status.localeCompare(b.status))
    return { kept, counted }
  }

  it('follow every report filed, claimed, resolved or deleted, ranked as REPORT_SEVERITY orders the reasons', async () => {
    const { db, admin, owner, alice, bob, upload } = await setUp()
    const [a, b, c] = [await upload(), await upload(), await upload()]
    const check = async () => {
      const { kept, counted } = await keptAndCounted(db)
      expect(kept).toEqual(counted)
    }
    for (const [i, reason] of REPORT_SEVERITY.entries()) {
      await createReport(db, visitor(`203.0.113.${i}`, `fingerprint-${i}`), a, { reason })
      await check()
    }
    expect(await db.all(sql`SELECT reason_rank, report_count FROM report_groups WHERE upload_id = ${a}`)).toEqual([{ reason_rank: 0, report_count: 6 }])
    const filed = await createReport(db, { actor: alice }, b, { reason: 'spam' })
    await createReport(db, { actor: bob }, b, { reason: 'harassment' })
    await createReport(db, { actor: owner }, c, { reason: 'copyright' })
    await check()
    await claimReport(db, admin, filed.report.id)
    await check()
    await createReport(db, { actor: admin }, b, { reason: 'illegal' })
    await check()
    await resolveReport(db, admin, filed.report.id, { action: 'dismiss' }, fsMediaStore('/nonexistent-media'))
    await check()
    await db.run(sql`DELETE FROM reports WHERE reason = 'minor_safety'`)
    await check()
    expect(await db.all(sql`SELECT reason_rank FROM report_groups WHERE upload_id = ${a}`)).toEqual([{ reason_rank: 1 }])
    await db.run(sql`DELETE FROM users WHERE id = ${bob.id}`)
    // A removed upload's reports stay, and so does their group.
    await db.run(sql`DELETE FROM uploads WHERE id = ${c}`)
    await check()
    expect(await db.all(sql`SELECT upload_id, status FROM report_groups ORDER BY upload_id, status`)).toEqual([
      { upload_id: a, status: 'open' }, { upload_id: b, status: 'resolved' }, { upload_id: c, status: 'open' },
    ].sort((x, y) => x.upload_id.localeCompare(y.upload_id)))
  })
})
