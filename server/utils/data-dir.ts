import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join, resolve } from 'node:path'

/** Absolute path of the data dir (`NUXT_DATA_DIR`), or of a path inside it. */
export function dataPath(...parts: string[]): string {
  return resolve(String(useRuntimeConfig().dataDir || './data'), ...parts)
}

export interface Secrets {
  /** HS256 key of the auth-token JWT. */
  sessionSecret: string
  /** nuxt-auth-utils' sealed-cookie password (OAuth flow only). */
  sessionPassword: string
  /** Key of the HMAC that stands in for client IPs. */
  ipHashSecret: string
}

let secrets: Secrets | undefined

/**
 * Secrets from the environment when set, else generated once and kept in
 * `<data>/secrets.json` (mode 0600), so restarts keep sessions valid.
 */
export function useSecrets(): Secrets {
  if (secrets) return secrets
  const config = useRuntimeConfig()
  const file = dataPath('secrets.json')
  let stored: Partial<Secrets> = {}
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>
  const generated: Secrets = {
    sessionSecret: stored.sessionSecret || randomBytes(48).toString('base64url'),
    sessionPassword: stored.sessionPassword || randomBytes(48).toString('base64url'),
    ipHashSecret: stored.ipHashSecret || randomBytes(48).toString('base64url'),
  }
  if (JSON.stringify(generated) !== JSON.stringify(stored)) {
    mkdirSync(dataPath(), { recursive: true })
    writeFileSync(file, JSON.stringify(generated, null, 2), { mode: 0o600 })
    chmodSync(file, 0o600)
  }
  secrets = {
    ...generated,
    sessionSecret: String(config.sessionSecret || '') || generated.sessionSecret,
    sessionPassword: String(config.sessionPassword || '') || generated.sessionPassword,
  }
  return secrets
}

/** Creates the data dir and its sub-folders. */
export function ensureDataDirs(): void {
  for (const dir of ['', 'media', 'outbox', 'tmp']) mkdirSync(join(dataPath(), dir), { recursive: true })
}
