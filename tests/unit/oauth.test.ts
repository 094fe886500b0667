import { randomUUID } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import type Database from 'better-sqlite3'
import {
  linkOAuthAccount, listOAuthAccounts, profileFromDiscord, profileFromGitHub, profileFromGoogle,
  resolveOAuthSignIn, unlinkOAuthAccount, usernameBase, type ProviderProfile,
} from '../../server/services/oauth'
import { testDatabase } from '../support/database'

let sqlite: Database.Database

function addUser(fields: { email?: string | null, username?: string, password?: boolean, mfa?: boolean } = {}) {
  const id = randomUUID()
  sqlite.prepare('INSERT INTO users (id, email, username, password_hash, mfa_enabled) VALUES (?, ?, ?, ?, ?)')
    .run(id, fields.email ?? null, fields.username ?? `u_${id.slice(0, 8)}`, fields.password === false ? null : 'hash', fields.mfa ? 1 : 0)
  return id
}

const profile = (overrides: Partial<ProviderProfile> = {}): ProviderProfile => ({
  provider: 'github', providerUserId: '42', email: null, emailVerified: false, username: 'octocat', ...overrides,
})

beforeEach(() => {
  sqlite = testDatabase().sqlite
})

describe('provider profiles', () => {
  it('reads GitHub verification from the e-mail list only', () => {
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test' }, [{ email: 'o@x.test', primary: true, verified: true }]))
      .toEqual({ provider: 'github', providerUserId: '7', email: 'o@x.test', emailVerified: true, username: 'octo' })
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test' }, [{ email: 'o@x.test', primary: true, verified: false }]).emailVerified).toBe(false)
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test' }).emailVerified).toBe(false)
    expect(profileFromGitHub({ id: 7, login: 'octo', email: 'o@x.test', email_verified: true }).emailVerified).toBe(true)
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
  it('creates an account, then finds it again by provider id', () => {
    const first = resolveOAuthSignIn(sqlite, profile({ email: 'new@x.test', emailVerified: true }))
    expect(first).toMatchObject({ mfaRequired: false, pendingLink: null, created: true })
    const user = sqlite.prepare('SELECT username, email, password_hash FROM users WHERE id = ?').get(first.userId)
    expect(user).toEqual({ username: 'octocat', email: 'new@x.test', password_hash: null })
    const again = resolveOAuthSignIn(sqlite, profile({ email: 'changed@x.test', emailVerified: true }))
    expect(again).toEqual({ userId: first.userId, mfaRequired: false, pendingLink: null, created: false })
  })

  it('links by verified e-mail only', () => {
    const owner = addUser({ email: 'owner@x.test' })
    const unverified = resolveOAuthSignIn(sqlite, profile({ providerUserId: '1', email: 'owner@x.test', emailVerified: false }))
    expect(unverified.userId).not.toBe(owner)
    expect(unverified.created).toBe(true)
    expect(sqlite.prepare('SELECT email FROM users WHERE id = ?').get(unverified.userId)).toEqual({ email: null })
    const verified = resolveOAuthSignIn(sqlite, profile({ provider: 'google', providerUserId: '2', email: 'OWNER@x.test', emailVerified: true }))
    expect(verified).toEqual({ userId: owner, mfaRequired: false, pendingLink: null, created: false })
    expect(listOAuthAccounts(sqlite, owner).accounts.map(a => a.provider)).toEqual(['google'])
  })

  it('keeps the link of an MFA account pending', () => {
    const owner = addUser({ email: 'mfa@x.test', mfa: true })
    const result = resolveOAuthSignIn(sqlite, profile({ email: 'mfa@x.test', emailVerified: true }))
    expect(result).toMatchObject({ userId: owner, mfaRequired: true, created: false })
    expect(result.pendingLink?.providerUserId).toBe('42')
    expect(listOAuthAccounts(sqlite, owner).accounts).toEqual([])
  })

  it('maps the same id from two providers to two accounts', () => {
    const github = resolveOAuthSignIn(sqlite, profile({ provider: 'github', providerUserId: '1234' }))
    const discord = resolveOAuthSignIn(sqlite, profile({ provider: 'discord', providerUserId: '1234' }))
    expect(github.userId).not.toBe(discord.userId)
    const names = sqlite.prepare('SELECT username FROM users ORDER BY created_at, rowid').all()
    expect(names).toEqual([{ username: 'octocat' }, { username: 'octocat_2' }])
  })

  it('makes the username unique case-insensitively', () => {
    addUser({ username: 'OctoCat' })
    const result = resolveOAuthSignIn(sqlite, profile())
    expect(sqlite.prepare('SELECT username FROM users WHERE id = ?').get(result.userId)).toEqual({ username: 'octocat_2' })
  })
})

describe('linking and unlinking', () => {
  it('refuses an identity that belongs to another user, or a second one of a provider', () => {
    const a = addUser()
    const b = addUser()
    linkOAuthAccount(sqlite, a, profile())
    linkOAuthAccount(sqlite, a, profile())
    expect(() => linkOAuthAccount(sqlite, b, profile())).toThrow(expect.objectContaining({ statusCode: 409 }))
    expect(() => linkOAuthAccount(sqlite, a, profile({ providerUserId: '43' }))).toThrow(expect.objectContaining({ statusCode: 409 }))
  })

  it('unlinks while a password or another provider is left', () => {
    const oauthOnly = addUser({ password: false })
    linkOAuthAccount(sqlite, oauthOnly, profile())
    linkOAuthAccount(sqlite, oauthOnly, profile({ provider: 'google', providerUserId: 'g1' }))
    expect(listOAuthAccounts(sqlite, oauthOnly).hasPassword).toBe(false)
    unlinkOAuthAccount(sqlite, oauthOnly, 'google')
    expect(() => unlinkOAuthAccount(sqlite, oauthOnly, 'github')).toThrow(expect.objectContaining({ statusCode: 400 }))
    expect(() => unlinkOAuthAccount(sqlite, oauthOnly, 'google')).toThrow(expect.objectContaining({ statusCode: 404 }))

    const withPassword = addUser()
    linkOAuthAccount(sqlite, withPassword, profile({ providerUserId: '77' }))
    unlinkOAuthAccount(sqlite, withPassword, 'github')
    expect(listOAuthAccounts(sqlite, withPassword)).toEqual({ accounts: [], hasPassword: true })
  })
})
