import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Database } from '../database/port'
import { generateSecrets, readSecretsFile, storeSecretsInDatabase, SECRET_NAMES, writeSecretsFile, type Secrets } from '../services/app-secrets'

export type { Secrets }

/** Absolute path of the data dir (`NUXT_DATA_DIR`), or of a path inside it. */
export function dataPath(...parts: string[]): string {
  return resolve(String(useRuntimeConfig().dataDir || './data'), ...parts)
}

let secrets: Secrets | undefined

/** The shortest session secret or password the environment may set. */
const MIN_SESSION_KEY_BYTES = 32

/**
 * Loads the generated secrets once at start: from `<data>/secrets.json` on
 * SQLite (written atomically, mode 0600), from the `app_secrets` table on
 * PostgreSQL (so every instance agrees). A value set in the environment
 * always wins. A corrupt secrets file is an error, never silently replaced.
 */
export async function loadSecrets(db: Database): Promise<Secrets> {
  const config = useRuntimeConfig()
  // The two that sign and seal sessions: a short key could be guessed, and every account with it.
  for (const [name, variable] of [['sessionSecret', 'NUXT_SESSION_SECRET'], ['sessionPassword', 'NUXT_SESSION_PASSWORD']] as const) {
    const bytes = Buffer.byteLength(String(config[name] || ''))
    if (bytes > 0 && bytes < MIN_SESSION_KEY_BYTES) {
      throw new Error(`${variable} must be at least ${MIN_SESSION_KEY_BYTES} bytes, not ${bytes}; unset, the site uses the one it generated`)
    }
  }
  let stored: Secrets
  if (db.dialect === 'postgres') {
    stored = await storeSecretsInDatabase(db, generateSecrets())
  }
  else {
    const file = dataPath('secrets.json')
    const found = existsSync(file) ? readSecretsFile(readFileSync(file, 'utf8'), file) : {}
    stored = { ...generateSecrets(), ...found }
    if (SECRET_NAMES.some(name => found[name] !== stored[name])) writeSecretsFile(file, stored)
  }
  secrets = {
    sessionSecret: String(config.sessionSecret || '') || stored.sessionSecret,
    sessionPassword: String(config.sessionPassword || '') || stored.sessionPassword,
    ipHashSecret: String(config.ipHashSecret || '') || stored.ipHashSecret,
    totpKey: String(config.totpKey || '') || stored.totpKey,
  }
  return secrets
}

/** The secrets loaded at start (see loadSecrets). */
export function useSecrets(): Secrets {
  if (!secrets) throw new Error('Secrets are not loaded yet')
  return secrets
}

/** Creates the data dir and its sub-folders (`media/` only when media are kept on disk). */
export function ensureDataDirs(): void {
  const media = String(useRuntimeConfig().mediaStorage || 'fs').trim().toLowerCase() === 's3' ? [] : ['media']
  for (const dir of ['', ...media, 'outbox', 'tmp']) mkdirSync(join(dataPath(), dir), { recursive: true })
}
