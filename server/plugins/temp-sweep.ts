import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { announceServer, otherServersAlive } from '../utils/data-dir-peers'

/**
 * Reclaims what a crash left behind (kill -9, power loss): request bodies and
 * image_url downloads in `<data>/tmp`, and the `*.tmp` halves of atomic writes
 * in `<data>/media` and its derivative folders. Nothing there outlives the request that
 * wrote it, so at start every such file is stale, unless another server is
 * alive on the same data dir (data-dir-peers.ts): then only a file untouched
 * for 15 minutes is. Synchronous on purpose: it finishes before the server
 * accepts its first request, so it never races one of its own uploads.
 */
export default defineNitroPlugin((nitroApp) => {
  try {
    // Another server alive on this data dir may be writing its own (data-dir-peers.ts).
    const removed = sweepTemporaryFiles(dataPath(), otherServersAlive(dataPath()) ? STILL_LIVE_MS : 0)
    if (removed > 0) console.info(`[start] removed ${removed} temporary file(s) left by an earlier run`)
  }
  catch (error) {
    // Housekeeping only: the server can serve without it, so it is reported, not fatal.
    console.warn('[start] could not sweep temporary files:', (error as Error).message)
  }
  try {
    nitroApp.hooks.hook('close', announceServer(dataPath()))
  }
  catch (error) {
    console.warn('[start] could not say this server is alive in <data>/run/:', (error as Error).message)
  }
})

/** A temporary file untouched this long is no live request's: uploads and fetches give up well before. */
const STILL_LIVE_MS = 15 * 60_000

/** The folders of `<data>/media` that derivatives are written into (mediaKeys). */
const DERIVATIVE_FOLDERS = ['small', 'thumbs', 'medium', 'display']

function sweepTemporaryFiles(dataDir: string, untouchedForMs: number): number {
  let removed = 0
  const stale = (path: string) => {
    if (untouchedForMs === 0) return true
    try {
      return Date.now() - statSync(path).mtimeMs >= untouchedForMs
    }
    catch {
      return false // removed meanwhile by the server it was for
    }
  }
  for (const name of list(join(dataDir, 'tmp'))) {
    if (!stale(join(dataDir, 'tmp', name))) continue
    rmSync(join(dataDir, 'tmp', name), { recursive: true, force: true })
    removed++
  }
  const media = join(dataDir, 'media')
  for (const dir of [media, ...DERIVATIVE_FOLDERS.map(folder => join(media, folder))]) {
    for (const name of list(dir)) {
      if (!name.endsWith('.tmp') || !stale(join(dir, name))) continue
      rmSync(join(dir, name), { force: true })
      removed++
    }
  }
  return removed
}

/** The names in a folder, or none when it does not exist (yet). */
function list(dir: string): string[] {
  try {
    return readdirSync(dir)
  }
  catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
}
