import { createHash } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { writeFileAtomic } from '../../server/services/media-store'
import { progress } from './progress'

/** What `npm run backup` wrote, and what `npm run restore` checks before it writes anything. */
export interface BackupManifest {
  format: 1
  /** The engine the rows came from: `database.sqlite` (an online backup) or `database.pgdump` (pg_dump, custom format). */
  engine: 'sqlite' | 'postgres'
  /** When the database copy was taken: the rows are the site as it was then. */
  takenAt: string
  finishedAt: string
  /** Rows per table in the copy, checked again after a restore. */
  counts: Record<string, number>
  media: {
    /** Where they were read from. */
    from: 'fs' | 's3'
    /** Images of the copied rows, and the objects written (images and the derivatives that existed). */
    images: number
    objects: number
    /** Images whose row is in the copy but whose file was gone when it was read (deleted meanwhile). */
    missing: string[]
  }
  /** `secrets.json` of the data dir is in the backup (SQLite; PostgreSQL keeps them in the dump). */
  secrets: boolean
  /** Every file of the backup but this manifest, with its size and SHA-256. */
  files: { path: string, size: number, sha256: string }[]
}

export const MANIFEST = 'manifest.json'
export const DATABASE_FILE = { sqlite: 'database.sqlite', postgres: 'database.pgdump' } as const
export const SECRETS_FILE = 'secrets.json'
export const MEDIA_FOLDER = 'media'

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex')

/** A file's size and SHA-256, read once. */
export async function hashFile(path: string): Promise<{ size: number, sha256: string }> {
  const hash = createHash('sha256')
  let size = 0
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer)
    size += (chunk as Buffer).length
  }
  return { size, sha256: hash.digest('hex') }
}

/** Every file under `dir`, as paths relative to it with `/` separators, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter(entry => !entry.isDirectory())
    .map(entry => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort()
}

/** Refuses a folder that holds anything (a missing one is fine). */
export async function refuseNonEmptyFolder(dir: string, what: string, advice: string): Promise<void> {
  if (!existsSync(dir)) return
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${what} ${dir} cannot be read: ${error.code ?? error.message}`)
  })
  if (entries.length) throw new Error(`${what} ${dir} is not empty (it holds ${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}): ${advice}`)
}

export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  await writeFileAtomic(join(dir, MANIFEST), Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`))
}

/** The manifest of a backup folder; throws a one-line reason when there is none or it is not ours. */
export async function readManifest(dir: string): Promise<BackupManifest> {
  const file = join(dir, MANIFEST)
  if (!existsSync(dir)) throw new Error(`${dir} does not exist`)
  if (!existsSync(file)) throw new Error(`${dir} holds no ${MANIFEST}: not a backup, or one that did not finish`)
  let parsed: Partial<BackupManifest>
  try {
    parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<BackupManifest>
  }
  catch {
    throw new Error(`${file} is not valid JSON: the backup is damaged`)
  }
  const valid = parsed.format === 1 && (parsed.engine === 'sqlite' || parsed.engine === 'postgres')
    && typeof parsed.counts === 'object' && parsed.counts !== null && Array.isArray(parsed.files) && typeof parsed.media === 'object'
    && parsed.files.every(entry => typeof entry?.path === 'string' && typeof entry.size === 'number' && typeof entry.sha256 === 'string'
      && !entry.path.split('/').includes('..') && !entry.path.startsWith('/'))
  if (!valid) throw new Error(`${file} is not a manifest this version writes: the backup is damaged or from elsewhere`)
  return parsed as BackupManifest
}

/**
 * Checks every file against the manifest (present, same size, same SHA-256)
 * and that nothing else is there; throws naming the first files that differ.
 */
export async function verifyBackup(dir: string, manifest: BackupManifest): Promise<void> {
  const listed = new Set(manifest.files.map(entry => entry.path))
  if (!listed.has(DATABASE_FILE[manifest.engine])) throw new Error(`The manifest lists no ${DATABASE_FILE[manifest.engine]}: the backup is damaged`)
  const problems: string[] = []
  for (const path of await filesUnder(dir)) {
    if (path !== MANIFEST && !listed.has(path)) problems.push(`${path} is not in the manifest`)
  }
  const bytes = manifest.files.reduce((sum, entry) => sum + entry.size, 0)
  const shown = progress('checking the backup', bytes / 1048576, { unit: 'MB', every: 256 })
  for (const entry of manifest.files) {
    const path = join(dir, entry.path)
    if (!existsSync(path)) {
      problems.push(`${entry.path} is missing`)
      continue
    }
    const found = await hashFile(path)
    if (found.size !== entry.size) problems.push(`${entry.path} has ${found.size} bytes, the manifest says ${entry.size}`)
    else if (found.sha256 !== entry.sha256) problems.push(`${entry.path} has another SHA-256 than the manifest says`)
    shown.add(entry.size / 1048576)
  }
  if (problems.length) {
    throw new Error(`The backup in ${dir} does not match its manifest, nothing was restored: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`)
  }
  shown.end()
}
