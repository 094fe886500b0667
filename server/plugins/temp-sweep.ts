import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Reclaims what a crash left behind (kill -9, power loss): request bodies and
 * image_url downloads in `<data>/tmp`, and the `*.tmp` halves of atomic writes
 * in `<data>/media` and its derivative folders. Nothing there outlives the request that
 * wrote it, and a data dir belongs to one running server, so at start every
 * such file is stale. Synchronous on purpose: it finishes before the server
 * accepts its first request, so it never races a live upload.
 */
export default defineNitroPlugin(() => {
  try {
    const removed = sweepTemporaryFiles(dataPath())
    if (removed > 0) console.info(`[start] removed ${removed} temporary file(s) left by an earlier run`)
  }
  catch (error) {
    // Housekeeping only: the server can serve without it, so it is reported, not fatal.
    console.warn('[start] could not sweep temporary files:', (error as Error).message)
  }
})

/** The folders of `<data>/media` that derivatives are written into (mediaKeys). */
const DERIVATIVE_FOLDERS = ['small', 'thumbs', 'medium', 'display']

function sweepTemporaryFiles(dataDir: string): number {
  let removed = 0
  for (const name of list(join(dataDir, 'tmp'))) {
    rmSync(join(dataDir, 'tmp', name), { recursive: true, force: true })
    removed++
  }
  const media = join(dataDir, 'media')
  for (const dir of [media, ...DERIVATIVE_FOLDERS.map(folder => join(media, folder))]) {
    for (const name of list(dir)) {
      if (!name.endsWith('.tmp')) continue
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
