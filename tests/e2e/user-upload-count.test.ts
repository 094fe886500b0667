import { describe, expect, it } from 'vitest'
import { sql } from '../../server/database/sql'
import { api, registerUser, type TestUser } from '../support/api'
import { seedUpload, serverDatabase } from '../support/seed'
import { postUpload } from '../support/uploads'

// users.public_uploads is kept by triggers on uploads; a user's list answers it as its total.

/** The account's kept count, and its public uploads counted from the table. */
async function counts(user: TestUser) {
  const { db } = serverDatabase()
  return (await db.get<{ kept: number, counted: number }>(sql`SELECT public_uploads AS kept,
    (SELECT count(*) FROM uploads WHERE user_id = ${user.id} AND is_private = 0) AS counted FROM users WHERE id = ${user.id}`))!
}

/** The total GET /api/user/{username}/uploads answers, and its entries' ids. */
async function listed(user: TestUser) {
  const response = await api(`/api/user/${user.username}/uploads?limit=100`)
  expect(response.status).toBe(200)
  return { total: response.body.total as number, ids: (response.body.uploads as { id: string }[]).map(entry => entry.id) }
}

const linkUpload = (user: TestUser, isPrivate = false) =>
  postUpload(user, { upload_type: 'link', description: 'Counted link', external_url: `https://example.com/${crypto.randomUUID()}`, is_private: String(isPrivate) })

describe('a user\'s public upload count', () => {
  it('follows uploads made, made private or public, and deleted', async () => {
    const user = await registerUser()
    const other = await registerUser()
    expect(await counts(user)).toEqual({ kept: 0, counted: 0 })
    await Promise.all([seedUpload(user), seedUpload(user), seedUpload(user, { isPrivate: true }), seedUpload(other)])
    expect(await counts(user)).toMatchObject({ kept: 2 })

    const made = await linkUpload(user)
    expect(made.status).toBe(201)
    const id = made.body.upload.id as string
    expect((await linkUpload(user, true)).status).toBe(201)
    expect(await counts(user)).toEqual({ kept: 3, counted: 3 })
    expect((await listed(user)).total).toBe(3)

    expect((await api(`/api/upload/${id}/privacy`, { method: 'PATCH', token: user.token })).body.upload.is_private).toBe(1)
    expect(await counts(user)).toEqual({ kept: 2, counted: 2 })
    expect((await listed(user)).ids).not.toContain(id)
    expect((await api(`/api/upload/${id}/privacy`, { method: 'PATCH', token: user.token })).body.upload.is_private).toBe(0)
    expect(await counts(user)).toEqual({ kept: 3, counted: 3 })

    expect((await api(`/api/upload/${id}`, { method: 'DELETE', token: user.token })).status).toBe(200)
    expect(await counts(user)).toEqual({ kept: 2, counted: 2 })
    expect(await listed(user)).toMatchObject({ total: 2 })
    expect(await counts(other)).toEqual({ kept: 1, counted: 1 })
  })

  it('stays exact under parallel uploads and deletions', async () => {
    const user = await registerUser()
    const made = await Promise.all(Array.from({ length: 12 }, (_, i) => linkUpload(user, i % 4 === 0)))
    expect(made.map(response => response.status)).toEqual(Array(12).fill(201))
    expect(await counts(user)).toEqual({ kept: 9, counted: 9 })
    const deleted = await Promise.all(made.slice(0, 6).map(response => api(`/api/upload/${response.body.upload.id}`, { method: 'DELETE', token: user.token })))
    expect(deleted.map(response => response.status)).toEqual(Array(6).fill(200))
    expect(await counts(user)).toEqual({ kept: 5, counted: 5 })
    const { total, ids } = await listed(user)
    expect(total).toBe(5)
    expect(ids).toHaveLength(5)
  })

  it('leaves other accounts\' counts alone when an account is deleted with its uploads', async () => {
    const user = await registerUser()
    const other = await registerUser()
    await Promise.all([seedUpload(user), seedUpload(user), seedUpload(other)])
    const response = await api('/api/profile', { method: 'DELETE', token: user.token, body: { password: user.password } })
    expect(response.status).toBe(200)
    expect(await counts(other)).toEqual({ kept: 1, counted: 1 })
    expect((await api(`/api/user/${user.username}/uploads`)).status).toBe(404)
  })
})
