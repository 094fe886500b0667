import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { readSecretsFile } from '../../server/services/app-secrets'
import { fsMediaStore, MEDIA_KEY, uploadMediaKeys, type MediaStore } from '../../server/services/media-store'
import { s3MediaStore } from '../../server/services/media-store-s3'
import { DATABASE_FILE, filesUnder, hashFile, MEDIA_FOLDER, readManifest, refuseNonEmptyFolder, SECRETS_FILE, sha256, verifyBackup, writeManifest, type BackupManifest } from './backup-manifest'
import { dropRestored, dumpPostgres, postgresCounts, postgresObjects, restorePostgres } from './pg-tools'
import { inParallel, progress } from './progress'
import { shownUrl, type SiteSettings } from './site-settings'
import { backupSqlite, inspectSqlite, type CopiedRows } from './sqlite-copy'

/**
 * While `work` runs, SIGINT and SIGTERM (Ctrl-C, a process manager) do not end
 * the process at once: `check()` then throws, so the caller's clean-up runs.
 */
async function interruptible<T>(work: (check: () => void) => Promise<T>): Promise<T> {
  let received: NodeJS.Signals | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    received = signal
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    return await work(() => {
      if (received) throw new Error(`Stopped by ${received}; what was written has been removed again`)
    })
  }
  finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}

/** Media read or written at once (files or bucket requests). */
const MEDIA_WIDTH = 8

const log = (line: string) => console.error(`  ${line}`)

/** The media store of a site's settings; `dir` replaces `<dataDir>/media` (a folder being filled). */
function storeOf(site: SiteSettings, dir = join(site.dataDir, MEDIA_FOLDER)): MediaStore {
  return site.media === 's3' ? s3MediaStore(site.s3!) : fsMediaStore(dir)
}

async function checkStore(store: MediaStore): Promise<void> {
  await store.check().catch((error: unknown) => {
    throw new Error(`media storage: ${(error as Error).message}`)
  })
}

/**
 * `npm run backup`: the rows (SQLite's online backup, or pg_dump in one
 * snapshot), the media of every image in those rows, the generated secrets
 * and a manifest, into the new or empty folder `to`. The manifest is written
 * last; a backup that fails is removed again.
 */
export async function backupSite(site: SiteSettings, to: string): Promise<BackupManifest> {
  await refuseNonEmptyFolder(to, 'The backup folder', 'back up into a new or empty folder')
  const engine = site.databaseUrl ? 'postgres' : 'sqlite'
  const sqliteFile = join(site.dataDir, 'app.sqlite')
  if (engine === 'sqlite' && !existsSync(sqliteFile)) throw new Error(`No site in ${site.dataDir} (app.sqlite is missing): set NUXT_DATA_DIR, or NUXT_DATABASE_URL for PostgreSQL`)
  if (site.media === 'fs' && !existsSync(join(site.dataDir, MEDIA_FOLDER))) throw new Error(`No media folder in ${site.dataDir}: set NUXT_DATA_DIR, or NUXT_MEDIA_STORAGE=s3 and NUXT_S3_* when media are in a bucket`)
  const source = storeOf(site)
  await checkStore(source)
  const createdFolder = !existsSync(to)
  // It will hold the secrets and every row: readable by its owner only, as the data dir's files are,
  // also when it was made beforehand (mkdir's mode applies only to a folder it makes).
  mkdirSync(to, { recursive: true, mode: 0o700 })
  chmodSync(to, 0o700)
  try {
    return await interruptible(async (check) => {
      const takenAt = new Date().toISOString()
      const databaseFile = join(to, DATABASE_FILE[engine])
      let rows: CopiedRows
      if (engine === 'sqlite') {
        await backupSqlite(sqliteFile, databaseFile, progress('copying the database', 0, { unit: 'pages', every: 25_600 }))
        chmodSync(databaseFile, 0o600)
        rows = inspectSqlite(databaseFile, { detach: true })
      }
      else {
        console.error(`dumping ${shownUrl(site.databaseUrl)} with pg_dump`)
        rows = await dumpPostgres(site.databaseUrl, databaseFile, log)
        chmodSync(databaseFile, 0o600)
      }

      // Secrets: the data dir's file on SQLite; on PostgreSQL they are rows of app_secrets, in the dump.
      const secretsFile = join(site.dataDir, SECRETS_FILE)
      const secrets = engine === 'sqlite' && existsSync(secretsFile)
      if (secrets) {
        const text = readFileSync(secretsFile, 'utf8')
        readSecretsFile(text, secretsFile)
        writeFileSync(join(to, SECRETS_FILE), text, { mode: 0o600 })
      }

      const files: BackupManifest['files'] = []
      const media: BackupManifest['media'] = { from: site.media, images: rows.images.length, objects: 0, missing: [] }
      const shown = progress(`copying media from ${source.name}`, rows.images.length)
      await inParallel(rows.images, MEDIA_WIDTH, async (image) => {
        check()
        for (const key of uploadMediaKeys(image.id, image.filename)) {
          const data = await source.read(key)
          if (!data) {
            // A derivative not made yet is made again on its first request; an image
            // whose file is gone was deleted after the copy of the rows was taken.
            if (key === image.filename) media.missing.push(key)
            continue
          }
          const path = join(to, MEDIA_FOLDER, key)
          await mkdir(dirname(path), { recursive: true })
          await writeFile(path, data, { flag: 'wx' })
          files.push({ path: `${MEDIA_FOLDER}/${key}`, size: data.length, sha256: sha256(data) })
          media.objects++
        }
        shown.add()
      })
      shown.end()
      media.missing.sort()
      for (const path of [DATABASE_FILE[engine], ...(secrets ? [SECRETS_FILE] : [])]) files.push({ path, ...await hashFile(join(to, path)) })
      files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
      check()
      const manifest: BackupManifest = { format: 1, engine, takenAt, finishedAt: new Date().toISOString(), counts: rows.counts, media, secrets, files }
      await writeManifest(to, manifest)
      return manifest
    })
  }
  catch (error) {
    if (createdFolder) rmSync(to, { recursive: true, force: true })
    else for (const entry of await readdir(to)) rmSync(join(to, entry), { recursive: true, force: true })
    throw error
  }
}

/** Where a restore writes: the data dir (SQLite, and media on disk) and, for a PostgreSQL backup, the database. */
export interface RestoreTarget {
  dataDir: string
  databaseUrl: string
  media: SiteSettings['media']
  s3?: SiteSettings['s3']
}

export interface RestoreReport {
  manifest: BackupManifest
  rows: { table: string, backup: number, restored: number }[]
  /** Media objects written and read back with the manifest's SHA-256. */
  objects: number
  where: { database: string, media: string }
}

const CONTENT_TYPES: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' }

/** Refuses a bucket that already holds keys this site writes, before anything is written. */
async function refuseNonEmptyBucket(bucket: MediaStore): Promise<void> {
  const ours = (await bucket.list('')).filter(object => MEDIA_KEY.test(object.key))
  if (ours.length) throw new Error(`The ${bucket.name} already holds media (${ours.length} object(s), e.g. ${ours[0]!.key}): restore into a new, empty bucket`)
}

/**
 * `npm run restore`: refuses a target holding anything, checks the backup
 * against its manifest, writes rows, secrets and media, then checks the
 * row counts and reads every media object back. On any failure everything
 * written is removed again, so the target is as empty as it was.
 */
export async function restoreSite(from: string, target: RestoreTarget): Promise<RestoreReport> {
  const manifest = await readManifest(from)
  const mediaFiles = manifest.files.filter(file => file.path.startsWith(`${MEDIA_FOLDER}/`))
  const strange = mediaFiles.find(file => !MEDIA_KEY.test(file.path.slice(MEDIA_FOLDER.length + 1)))
  if (strange) throw new Error(`The backup holds ${strange.path}, which is no media key of this site: nothing was restored`)
  if (manifest.engine === 'postgres' && !target.databaseUrl) {
    throw new Error('This is a backup of a PostgreSQL site: name the new database with --to postgres://… (or NUXT_DATABASE_URL)')
  }
  if (manifest.engine === 'sqlite' && target.databaseUrl) {
    throw new Error('This is a backup of an embedded (SQLite) site: --to takes a data dir; restore it there, then `npm run move-data` moves it to PostgreSQL')
  }

  // Refuse a target that holds anything, before anything is written.
  const mediaDir = join(target.dataDir, MEDIA_FOLDER)
  if (manifest.engine === 'sqlite') {
    await refuseNonEmptyFolder(target.dataDir, 'The data dir', 'restore into a new or empty data dir')
  }
  else {
    const objects = await postgresObjects(target.databaseUrl)
    if (objects > 0) throw new Error(`The target database ${shownUrl(target.databaseUrl)} is not empty (${objects} table(s), function(s) or other objects): restore into a new, empty database`)
    if (target.media === 'fs' && (await filesUnder(mediaDir)).length) throw new Error(`The media folder ${mediaDir} is not empty: restore into a data dir without media`)
  }
  const bucket = target.media === 's3' ? s3MediaStore(target.s3!) : undefined
  if (bucket) {
    await checkStore(bucket)
    await refuseNonEmptyBucket(bucket)
  }
  // The slow check last, once the target is known to be usable; still before anything is written.
  await verifyBackup(from, manifest)

  const undo: (() => Promise<unknown>)[] = []
  const where = { database: '', media: bucket?.name ?? mediaDir }
  try {
    return await interruptible(async (check) => {
      // What goes into the data dir is built in a folder beside it and renamed into place at the end.
      const dataDirExisted = existsSync(target.dataDir)
      const building = join(dirname(target.dataDir), `.${basename(target.dataDir)}.restoring-${randomBytes(4).toString('hex')}`)
      if (manifest.engine === 'sqlite' || !bucket) {
        mkdirSync(building, { recursive: true })
        undo.push(() => rm(building, { recursive: true, force: true }))
      }
      let restored: Record<string, number>
      if (manifest.engine === 'sqlite') {
        const file = join(building, 'app.sqlite')
        copyFileSync(join(from, DATABASE_FILE.sqlite), file)
        chmodSync(file, 0o600)
        if (manifest.secrets) writeFileSync(join(building, SECRETS_FILE), readFileSync(join(from, SECRETS_FILE)), { mode: 0o600 })
        restored = inspectSqlite(file).counts
        where.database = join(target.dataDir, 'app.sqlite')
      }
      else {
        console.error(`restoring into ${shownUrl(target.databaseUrl)} with pg_restore (one transaction)`)
        // Pushed first: a restore stopped by a signal may still have committed.
        undo.push(() => dropRestored(target.databaseUrl))
        await restorePostgres(target.databaseUrl, join(from, DATABASE_FILE.postgres), log)
        check()
        restored = await postgresCounts(target.databaseUrl)
        where.database = shownUrl(target.databaseUrl)
      }
      const tables = [...new Set([...Object.keys(manifest.counts), ...Object.keys(restored)])].sort()
      const rows = tables.map(table => ({ table, backup: manifest.counts[table] ?? 0, restored: restored[table] ?? 0 }))
      const wrong = rows.filter(row => row.backup !== row.restored)
      if (wrong.length) throw new Error(`Row counts differ after the restore: ${wrong.map(row => `${row.table} ${row.backup} → ${row.restored}`).join(', ')}`)

      const store = bucket ?? fsMediaStore(join(building, MEDIA_FOLDER))
      const written: string[] = []
      if (bucket) undo.push(() => bucket.remove(written))
      const shown = progress(`restoring media into ${bucket?.name ?? mediaDir}`, mediaFiles.length)
      await inParallel(mediaFiles, MEDIA_WIDTH, async (file) => {
        check()
        const key = file.path.slice(MEDIA_FOLDER.length + 1)
        const data = await readFile(join(from, file.path))
        written.push(key)
        await store.put(key, data, CONTENT_TYPES[key.split('.').pop()!] ?? 'application/octet-stream')
        const stored = await store.read(key)
        if (!stored || sha256(stored) !== file.sha256) throw new Error(`${key} reads back from ${store.name} with another SHA-256`)
        shown.add()
      })
      shown.end()

      check()
      // Into place: the whole data dir (SQLite), or its media folder (PostgreSQL with media on disk).
      if (manifest.engine === 'sqlite') {
        if (dataDirExisted) {
          ownedLike(building, target.dataDir)
          // Found empty above: rmdir refuses to remove it should anything have arrived since.
          rmdirSync(target.dataDir)
        }
        renameSync(building, target.dataDir)
      }
      else if (!bucket) {
        mkdirSync(target.dataDir, { recursive: true })
        ownedLike(join(building, MEDIA_FOLDER), existsSync(mediaDir) ? mediaDir : target.dataDir)
        // Found without files above: at most the empty folders a start makes.
        rmSync(mediaDir, { recursive: true, force: true })
        renameSync(join(building, MEDIA_FOLDER), mediaDir)
        rmSync(building, { recursive: true, force: true })
      }
      return { manifest, rows, objects: mediaFiles.length, where }
    })
  }
  catch (error) {
    for (const step of undo.reverse()) await step().catch(() => {})
    throw error
  }
}

/**
 * Gives a folder built for the restore the mode and owner of the one it
 * replaces, and every file in it that owner: a data dir made beforehand for
 * the service's account (`install -d -o dif -m 0700`) stays that account's
 * when root runs the restore, so the site can open what was restored. Only
 * root may give files away; anyone else wrote them as their own already.
 */
function ownedLike(built: string, existing: string): void {
  const { mode, uid, gid } = statSync(existing)
  chmodSync(built, mode & 0o7777)
  if (process.getuid?.() !== 0) return
  chownSync(built, uid, gid)
  for (const path of readdirSync(built, { recursive: true, encoding: 'utf8' })) chownSync(join(built, path), uid, gid)
}
