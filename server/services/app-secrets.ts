import { randomBytes } from 'node:crypto'
import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import type { Executor } from '../database/port'
import { inList, sql } from '../database/sql'

export interface Secrets {
  /** HS256 key of the auth-token JWT. */
  sessionSecret: string
  /** nuxt-auth-utils' sealed-cookie password (OAuth flow only). */
  sessionPassword: string
  /** Key of the HMAC that stands in for client IPs. */
  ipHashSecret: string
  /** Key (through HKDF) of the AES-256-GCM encryption of TOTP secrets at rest. */
  totpKey: string
}

export const SECRET_NAMES = ['sessionSecret', 'sessionPassword', 'ipHashSecret', 'totpKey'] as const

export function generateSecrets(): Secrets {
  const one = () => randomBytes(48).toString('base64url')
  return { sessionSecret: one(), sessionPassword: one(), ipHashSecret: one(), totpKey: one() }
}

/** The stored secrets of a `secrets.json`; throws a one-line error when the file is not what we wrote. */
export function readSecretsFile(text: string, file: string): Partial<Secrets> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  }
  catch {
    throw new Error(`${file} is not valid JSON: restore it from a backup, or delete it to generate new secrets (this signs everyone out)`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} does not hold a JSON object: restore it, or delete it to generate new secrets`)
  }
  const found: Partial<Secrets> = {}
  for (const name of SECRET_NAMES) {
    const value = (parsed as Record<string, unknown>)[name]
    if (typeof value === 'string' && value.length >= 32) found[name] = value
  }
  return found
}

/** Writes the secrets file atomically (temporary file, then rename), readable by its owner only. */
export function writeSecretsFile(file: string, secrets: Secrets): void {
  const temporary = `${file}.${process.pid}.tmp`
  try {
    writeFileSync(temporary, JSON.stringify(secrets, null, 2), { mode: 0o600 })
    chmodSync(temporary, 0o600)
    renameSync(temporary, file)
  }
  finally {
    rmSync(temporary, { force: true })
  }
}

/**
 * Keeps the first generated value of each secret in `app_secrets`: every
 * instance offers its own, the first insert wins, and all read the winner.
 */
export async function storeSecretsInDatabase(db: Executor, offered: Secrets): Promise<Secrets> {
  for (const name of SECRET_NAMES) {
    await db.run(sql`INSERT INTO app_secrets (name, value) VALUES (${name}, ${offered[name]}) ON CONFLICT (name) DO NOTHING`)
  }
  const rows = await db.all<{ name: string, value: string }>(sql`SELECT name, value FROM app_secrets WHERE name ${inList([...SECRET_NAMES])}`)
  const stored = Object.fromEntries(rows.map(row => [row.name, row.value])) as Partial<Secrets>
  return { ...offered, ...stored }
}
