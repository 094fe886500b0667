import { describe, expect, it } from 'vitest'
import { dialects, render, sql } from '../../server/database/sql'

describe('render', () => {
  it('numbers parameters per engine through nested pieces', () => {
    const query = sql`SELECT id FROM uploads WHERE user_id = ${'u1'}${sql` AND created_at >= ${'2026-01-01'}`}${dialects({ sqlite: '', postgres: ' FOR SHARE' })} LIMIT ${10}`
    expect(render(query, 'sqlite')).toEqual({ text: 'SELECT id FROM uploads WHERE user_id = ? AND created_at >= ? LIMIT ?', values: ['u1', '2026-01-01', 10], replanned: false })
    expect(render(query, 'postgres')).toEqual({ text: 'SELECT id FROM uploads WHERE user_id = $1 AND created_at >= $2 FOR SHARE LIMIT $3', values: ['u1', '2026-01-01', 10], replanned: false })
  })

  it('says a query is replanned when it or any piece inside it is', () => {
    const range = sql.replanned(sql` AND created_at >= ${'2026-01-01'}`)
    expect(render(sql`SELECT id FROM uploads WHERE true${sql`${range}`}`, 'postgres')).toEqual({
      text: 'SELECT id FROM uploads WHERE true AND created_at >= $1',
      values: ['2026-01-01'],
      replanned: true,
    })
    expect(render(sql.replanned(sql`SELECT ${1} AS n`), 'sqlite').replanned).toBe(true)
    expect(render(sql`SELECT ${1} AS n`, 'postgres').replanned).toBe(false)
  })
})
