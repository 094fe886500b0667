import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { bestScore, divisiveScore, hotScore, periodStart } from '../../shared/utils/ranking'
import { createSeeder } from '../../scripts/lib/seed'
import { periodDays } from '../../server/services/lists'
import { testDatabase } from '../support/database'

// Hand-computed: z = 1.96, z² = 3.8416.
describe('bestScore (Wilson lower bound)', () => {
  it('is 0 with no votes', () => {
    expect(bestScore(0, 0)).toBe(0)
  })

  it('matches hand-computed bounds', () => {
    // 10 up, 0 down: p = 1, n = 10: (1 + 0.19208 − 1.96·√0.009604) / 1.38416 = 1 / 1.38416
    expect(bestScore(10, 0)).toBeCloseTo(1 / 1.38416, 10)
    // 1 up: (1 + 1.9208 − 1.96·√0.9604) / 4.8416 = (2.9208 − 1.920800) / 4.8416 = 1 / 4.8416
    expect(bestScore(1, 0)).toBeCloseTo(1 / 4.8416, 10)
    // 0 up, 5 down: p = 0: (0.38416 − 1.96·√(0.19208/5)) / 1.76832 = (0.38416 − 0.38416) / … = 0
    expect(bestScore(0, 5)).toBeCloseTo(0, 10)
    // 5 up, 5 down: p = 0.5, n = 10: (0.5 + 0.19208 − 1.96·√((0.25 + 0.09604)/10)) / 1.38416
    expect(bestScore(5, 5)).toBeCloseTo((0.69208 - 1.96 * Math.sqrt(0.034604)) / 1.38416, 10)
    expect(bestScore(5, 5)).toBeCloseTo(0.2366, 4)
  })

  it('ranks more evidence above a lucky few', () => {
    expect(bestScore(90, 10)).toBeGreaterThan(bestScore(1, 0))
    expect(bestScore(3, 0)).toBeGreaterThan(bestScore(1, 0))
  })
})

describe('divisiveScore', () => {
  it('is 0 when either side has no votes', () => {
    expect(divisiveScore(0, 0)).toBe(0)
    expect(divisiveScore(7, 0)).toBe(0)
    expect(divisiveScore(0, 7)).toBe(0)
  })

  it('is (u+d)^(min/max)', () => {
    expect(divisiveScore(5, 5)).toBe(10)
    expect(divisiveScore(3, 7)).toBeCloseTo(10 ** (3 / 7), 12)
    expect(divisiveScore(7, 3)).toBe(divisiveScore(3, 7))
    expect(divisiveScore(1, 1)).toBe(2)
    expect(divisiveScore(1, 3)).toBeCloseTo(4 ** (1 / 3), 12)
  })
})

describe('hotScore', () => {
  it('is the age term alone with no (or balanced) votes', () => {
    expect(hotScore(0, 0, '2023-11-14T22:13:20.000Z')).toBe(0) // Unix 1700000000
    expect(hotScore(4, 4, '2023-11-15T10:43:20.000Z')).toBe(1) // 45000 s later
  })

  it('adds sign(u−d)·log10(|u−d|)', () => {
    expect(hotScore(10, 0, '2023-11-14T22:13:20.000Z')).toBe(1)
    expect(hotScore(3, 7, '2023-11-14T22:13:20.000Z')).toBeCloseTo(-Math.log10(4), 12)
    expect(hotScore(101, 1, '2023-11-15T10:43:20.000Z')).toBeCloseTo(3, 12)
    expect(hotScore(2, 1, '2023-11-14T22:13:20.000Z')).toBe(0) // log10(1)
  })

  it('weighs 45000 s of age as one order of magnitude of votes', () => {
    expect(hotScore(10, 0, '2023-11-14T22:13:20.000Z')).toBeCloseTo(hotScore(0, 0, '2023-11-15T10:43:20.000Z'), 12)
  })
})

describe('periodStart', () => {
  it('is the minute-rounded start of the period, null for all', () => {
    const now = Date.parse('2026-03-10T12:34:56.789Z')
    expect(periodStart('all', now)).toBeNull()
    expect(periodStart('day', now)).toBe('2026-03-09T12:34:00.000Z')
    expect(periodStart('week', now)).toBe('2026-03-03T12:34:00.000Z')
    expect(periodStart('month', now)).toBe('2026-02-08T12:34:00.000Z')
    expect(periodStart('year', now)).toBe('2025-03-10T12:34:00.000Z')
  })
})

describe('the kept score columns', () => {
  it('hold the formulas for every count, including none and ties, and follow count changes', async () => {
    const db = await testDatabase()
    const seeder = createSeeder(db)
    const userId = await seeder.user({ username: 'ranker' })
    const cases: [number, number, string][] = [[0, 0, '2023-11-14T22:13:20.000Z'], [10, 0, '2026-01-01T00:00:00.250Z'],
      [3, 7, '2024-05-05T05:05:05.555Z'], [5, 5, '2025-12-31T23:59:59.999Z'], [1, 0, '2026-02-01T00:00:00.000Z'], [0, 4, '2026-02-01T00:00:00.000Z']]
    const ids: string[] = []
    for (const [upvotes, downvotes, createdAt] of cases) ids.push(await seeder.upload({ userId, upvotes, downvotes, createdAt }))
    const check = async () => {
      for (const [i, id] of ids.entries()) {
        const row = (await db.get<{ upvotes: number, downvote_count: number, created_at: string, hot_score: number, best_score: number, divisive_score: number }>(
          sql`SELECT upvotes, downvote_count, created_at, hot_score, best_score, divisive_score FROM uploads WHERE id = ${id}`))!
        expect(row.hot_score, `hot of case ${i}`).toBeCloseTo(hotScore(row.upvotes, row.downvote_count, row.created_at), 9)
        expect(row.best_score, `best of case ${i}`).toBeCloseTo(bestScore(row.upvotes, row.downvote_count), 12)
        expect(row.divisive_score, `divisive of case ${i}`).toBeCloseTo(divisiveScore(row.upvotes, row.downvote_count), 12)
      }
    }
    await check()
    await db.run(sql`UPDATE uploads SET upvotes = upvotes + 3, downvote_count = downvote_count + 1`)
    await check()
  })
})

describe('periodDays', () => {
  it('names every UTC day from the one holding the start to tomorrow', () => {
    const now = Date.parse('2026-11-23T19:10:30.000Z')
    expect(periodDays(periodStart('day', now)!, now)).toEqual(['2026-11-22', '2026-11-23', '2026-11-24'])
    expect(periodDays(periodStart('week', now)!, now)).toHaveLength(9)
    expect(periodDays(periodStart('month', now)!, now)).toHaveLength(32)
    expect(periodDays(periodStart('year', now)!, now)).toHaveLength(367)
  })

  it('crosses month and year ends, a leap day included', () => {
    expect(periodDays('2027-12-31T23:59:00.000Z', Date.parse('2028-01-01T00:00:00.000Z'))).toEqual(['2027-12-31', '2028-01-01', '2028-01-02'])
    expect(periodDays('2028-02-28T12:00:00.000Z', Date.parse('2028-03-01T00:30:00.000Z'))).toEqual(['2028-02-28', '2028-02-29', '2028-03-01', '2028-03-02'])
  })
})
