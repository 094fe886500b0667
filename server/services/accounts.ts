import { randomUUID } from 'node:crypto'
import type Database from 'better-sqlite3'
import { hash, verify } from '@node-rs/argon2'
import { apiError } from '../utils/errors'

/** OWASP's argon2id parameters (19 MiB, 2 passes, 1 lane). */
const ARGON2 = { algorithm: 2 /* Argon2id */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2)
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // With no hash (unknown e-mail, OAuth-only account) a dummy hash is checked, so timing does not tell.
  const target = passwordHash ?? await dummyHash()
  const ok = await verify(target, password).catch(() => false)
  return passwordHash !== null && ok
}

let dummy: Promise<string> | undefined
const dummyHash = () => (dummy ??= hashPassword('timing-equaliser-not-a-password'))

export interface AccountRow {
  id: string
  username: string
  email: string | null
  password_hash: string | null
  is_admin: number
  mfa_enabled: number
}

export function findAccountByEmail(sqlite: Database.Database, email: string): AccountRow | undefined {
  return sqlite.prepare('SELECT id, username, email, password_hash, is_admin, mfa_enabled FROM users WHERE email = ?').get(email) as AccountRow | undefined
}

/** Creates an account; 409 when the e-mail or (case-insensitively) the username is taken. */
export async function registerAccount(sqlite: Database.Database, input: { email: string, username: string, password: string }, isAdmin: boolean) {
  const taken = sqlite.prepare('SELECT email = ? AS email_taken FROM users WHERE email = ? OR username = ? COLLATE NOCASE LIMIT 1')
    .get(input.email, input.email, input.username) as { email_taken: number } | undefined
  if (taken) throw apiError(409, taken.email_taken ? 'Email already registered' : 'Username already taken')
  const passwordHash = await hashPassword(input.password)
  const id = randomUUID()
  try {
    sqlite.prepare('INSERT INTO users (id, email, username, password_hash, is_admin) VALUES (?, ?, ?, ?, ?)')
      .run(id, input.email, input.username, passwordHash, isAdmin ? 1 : 0)
  }
  catch (error) {
    // A concurrent registration won the race for the same e-mail or username.
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw apiError(409, String((error as Error).message).includes('email') ? 'Email already registered' : 'Username already taken')
    }
    throw error
  }
  return { id, username: input.username, email: input.email }
}

/** Keeps the stored admin flag in step with NUXT_ADMIN_EMAILS (checked at every login/registration). */
export function syncAdminFlag(sqlite: Database.Database, userId: string, email: string | null, adminEmails: string[]): void {
  if (email && adminEmails.includes(email)) sqlite.prepare('UPDATE users SET is_admin = 1 WHERE id = ?').run(userId)
}

/** GET /api/profile's body. */
export function profileOf(sqlite: Database.Database, actor: { id: string, isAdmin: boolean }) {
  const row = sqlite.prepare(`SELECT id, username, email, created_at, mfa_enabled,
      (SELECT count(*) FROM uploads WHERE user_id = users.id) AS uploads,
      (SELECT count(*) FROM votes WHERE user_id = users.id) AS votes
    FROM users WHERE id = ?`).get(actor.id) as { id: string, username: string, email: string | null, created_at: string, mfa_enabled: number, uploads: number, votes: number }
  return {
    user: { id: row.id, username: row.username, email: row.email, createdAt: row.created_at, isAdmin: actor.isAdmin, mfaEnabled: row.mfa_enabled === 1 },
    stats: { uploads: row.uploads, votes: row.votes },
  }
}
