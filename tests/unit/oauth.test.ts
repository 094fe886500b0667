import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import type { SqliteDatabase } from '../../server/database/sqlite'
import { sql } from '../../server/database/sql'
import {
  linkOAuthAccount, listOAuthAccounts, profileFromDiscord, profileFromGitHub, profileFromGoogle,
  resolveOAuthSignIn, unlinkOAuthAccount, usernameBase, type ProviderProfile,
} from '../../server/services/oauth-accounts'
import { testDatabase } from '../support/database'

let db: SqliteDatabase

/** An account; its address verified unless `verified: false`. */
async function addUser(fields: { email?: string | null, username?: string, password?: boolean, mfa?: boolean, verified?: boolean } = {}) {
  const id = randomUUID()
  await db.run(sql`INSERT INTO users (id, email, username, password_hash, mfa_enabled, email_verified)
    VALUES (${id}, ${fields.email ?? null}, ${fields.username ?? `u_${id.slice(0, 8)}`}, ${fields.password === false ? null : 'hash'}, ${fields.mfa ? 1 : 0}, ${fields.verified !== false})`)
  return id
}

const profile = (overrides: Partial<ProviderProfile> = {}): ProviderProfile => ({
  provider: 'github', providerUserId: '42', email: null, emailVerified: false, username: 'octocat', ...overrides,
})

beforeEach(async () => {
  db = await testDatabase()
})

describe('provider profiles', () => {
  it('reads GitHub verification from the e-mail list only', () => {
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test' }, [{ email: 'o@x.test', primary: true, verified: true }]))
      .toEqual({ provider: 'github', providerUserId: '7', email: 'o@x.test', emailVerified: true, username: 'octo' })
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test' }, [{ email: 'o@x.test', primary: true, verified: false }]).emailVerified).toBe(false)
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test' }).emailVerified).toBe(false)
    // /user's own flag never overrides the e-mail list, and only the verified primary address counts.
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test', email_verified: true }).emailVerified).toBe(false)
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test', email_verified: true }, [{ email: 'o@x.test', primary: true, verified: false }]).emailVerified).toBe(false)
    expect(profileFromGitHub({ id: 7, login: 'octo' }, [{ email: 'p@x.test', primary: true, verified: false }, { email: 'o@x.test', primary: false, verified: true }]))
      .toMatchObject({ email: 'p@x.test', emailVerified: false })
  })

  it('reads Google and Discord verification flags', () => {
    expect(profileFromGoogle({ sub: '99', email: 'g@x.test', email_verified: true, name: 'G User' }))
      .toEqual({ provider: 'google', providerUserId: '99', email: 'g@x.test', emailVerified: true, username: 'G User' })
    expect(profileFromGoogle({ sub: '99', email: 'g@x.test', email_verified: false }).emailVerified).toBe(false)
    expect(profileFromDiscord({ id: '5', username: 'disco', email: 'd@x.test', verified: true }).emailVerified).toBe(true)
    expect(profileFromDiscord({ id: '5', username: 'disco', email: 'd@x.test', verified: false }).emailVerified).toBe(false)
  })

  it('refuses an answer without a user id', () => {
    expect(() => profileFromGoogle({ email: 'g@x.test' })).toThrow(expect.objectContaining({ statusCode: 502 }))
  })

  it('makes provider names valid usernames', () => {
    expect(usernameBase('José Müller')).toBe('Jose_Muller')
    expect(usernameBase('a')).toBe('a_user')
    expect(usernameBase('!!!')).toBe('user')
    expect(usernameBase('x'.repeat(40))).toHaveLength(30)
  })
})

describe('resolveOAuthSignIn', () => {
  it('creates an account, then finds it again by provider id', async () => {
    const first = await resolveOAuthSignIn(db, profile({ email: 'new@x.test', emailVerified: true }))
    expect(first).toMatchObject({ mfaRequired: false, pendingLink: null, created: true })
    const user = await db.get(sql`SELECT username, email, password_hash FROM users WHERE id = ${first.userId}`)
    expect(user).toEqual({ username: 'octocat', email: 'new@x.test', password_hash: null })
    const again = await resolveOAuthSignIn(db, profile({ email: 'changed@x.test', emailVerified: true }))
    expect(again).toEqual({ userId: first.userId, mfaRequired: false, pendingLink: null, created: false })
  })

  it('links by verified e-mail only', async () => {
    const owner = await addUser({ email: 'owner@x.test' })
    const unverified = await resolveOAuthSignIn(db, profile({ providerUserId: '1', email: 'owner@x.test', emailVerified: false }))
    expect(unverified.userId).not.toBe(owner)
    expect(unverified.created).toBe(true)
    expect(await db.get(sql`SELECT email FROM users WHERE id = ${unverified.userId}`)).toEqual({ email: null })
    const verified = await resolveOAuthSignIn(db, profile({ provider: 'google', providerUserId: '2', email: 'OWNER@x.test', emailVerified: true }))
    expect(verified).toEqual({ userId: owner, mfaRequired: false, pendingLink: null, created: false })
    expect((await listOAuthAccounts(db, owner)).accounts.map(a => a.provider)).toEqual(['google'])
  })

  it('keeps the link of an MFA account pending', async () => {
    const owner = await addUser({ email: 'mfa@x.test', mfa: true })
    const result = await resolveOAuthSignIn(db, profile({ email: 'mfa@x.test', emailVerified: true }))
    expect(result).toMatchObject({ userId: owner, mfaRequired: true, created: false })
    expect(result.pendingLink?.providerUserId).toBe('42')
    expect((await listOAuthAccounts(db, owner)).accounts).toEqual([])
  })

  it('takes an unverified account over, MFA and password gone, without an MFA step', async () => {
    const squatted = await addUser({ email: 'squat@x.test', mfa: true, verified: false })
    const result = await resolveOAuthSignIn(db, profile({ email: 'squat@x.test', emailVerified: true }))
    expect(result).toEqual({ userId: squatted, mfaRequired: false, pendingLink: null, created: false })
    expect(await db.get(sql`SELECT password_hash, mfa_enabled, email_verified FROM users WHERE id = ${squatted}`))
      .toEqual({ password_hash: null, mfa_enabled: 0, email_verified: 1 })
    expect((await listOAuthAccounts(db, squatted)).accounts.map(a => a.provider)).toEqual(['github'])
  })

  it('maps the same id from two providers to two accounts', async () => {
    const github = await resolveOAuthSignIn(db, profile({ provider: 'github', providerUserId: '1234' }))
    const discord = await resolveOAuthSignIn(db, profile({ provider: 'discord', providerUserId: '1234' }))
    expect(github.userId).not.toBe(discord.userId)
    const names = await db.all(sql`SELECT username FROM users ORDER BY created_at, rowid`)
    expect(names).toEqual([{ username: 'octocat' }, { username: 'octocat_2' }])
  })

  it('makes the username unique case-insensitively', async () => {
    await addUser({ username: 'OctoCat' })
    const result = await resolveOAuthSignIn(db, profile())
    expect(await db.get(sql`SELECT username FROM users WHERE id = ${result.userId}`)).toEqual({ username: 'octocat_2' })
  })
})

describe('linking and unlinking', () => {
  it('refuses an identity that belongs to another user, or a second one of a provider', async () => {
    const a = await addUser()
    const b = await addUser()
    await linkOAuthAccount(db, a, profile())
    await linkOAuthAccount(db, a, profile())
    await expect(linkOAuthAccount(db, b, profile())).rejects.toMatchObject({ statusCode: 409 })
    await expect(linkOAuthAccount(db, a, profile({ providerUserId: '43' }))).rejects.toMatchObject({ statusCode: 409 })
  })

  it('unlinks while a password or another provider is left', async () => {
    const oauthOnly = await addUser({ password: false })
    await linkOAuthAccount(db, oauthOnly, profile())
    await linkOAuthAccount(db, oauthOnly, profile({ provider: 'google', providerUserId: 'g1' }))
    expect((await listOAuthAccounts(db, oauthOnly)).hasPassword).toBe(false)
    await unlinkOAuthAccount(db, oauthOnly, 'google')
    await expect(unlinkOAuthAccount(db, oauthOnly, 'github')).rejects.toMatchObject({ statusCode: 400 })
    await expect(unlinkOAuthAccount(db, oauthOnly, 'google')).rejects.toMatchObject({ statusCode: 404 })

    const withPassword = await addUser()
    await linkOAuthAccount(db, withPassword, profile({ providerUserId: '77' }))
    await unlinkOAuthAccount(db, withPassword, 'github')
    expect(await listOAuthAccounts(db, withPassword)).toEqual({ accounts: [], hasPassword: true })
  })
})
