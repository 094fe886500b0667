import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'

/** How often a server says it is alive, and how long after its last word it counts as gone (a kill -9). */
const BEAT_MS = 10_000
const GONE_AFTER_MS = 30_000

/**
 * Servers sharing one data dir (two processes on one SQLite file, or a second
 * start by mistake): each keeps a file in `<data>/run/`, named by its process
 * id, touched every 10 s and removed as it stops; one counts as alive while
 * its file is fresh and its process runs. At start, what a crash left (temporary files, the
 * markers of unfinished uploads) is all stale only when no other server is
 * alive there; otherwise only what is old enough to be no live request's is
 * (docs/deployment.md, "One data dir").
 */
export function otherServersAlive(dataDir: string): boolean {
  aliveAtStart ??= lookForOthers(dataDir)
  return aliveAtStart
}

/** Asked once, at start, before this server announces itself. */
let aliveAtStart: boolean | undefined

function lookForOthers(dataDir: string): boolean {
  const run = join(dataDir, 'run')
  let names: string[]
  try {
    names = readdirSync(run)
  }
  catch {
    return false
  }
  const now = Date.now()
  let alive = false
  for (const name of names) {
    if (name === ownName) continue
    const path = join(run, name)
    try {
      if (now - statSync(path).mtimeMs < GONE_AFTER_MS && processAlive(Number(name.split('-')[0]))) alive = true
      else rmSync(path, { force: true })
    }
    catch { /* gone meanwhile */ }
  }
  return alive
}

let ownName: string | undefined

/** Whether a process of this machine runs under `pid` (a kill -9 leaves its file fresh for a while). */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  }
  catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Says this server is alive in `<data>/run/` until `stop` (called as the server closes). */
export function announceServer(dataDir: string): () => void {
  const run = join(dataDir, 'run')
  mkdirSync(run, { recursive: true })
  ownName = `${process.pid}-${randomBytes(4).toString('hex')}`
  const path = join(run, ownName)
  writeFileSync(path, `${process.pid}\n`)
  const timer = setInterval(() => {
    const now = new Date()
    try {
      utimesSync(path, now, now)
    }
    catch {
      try {
        writeFileSync(path, `${process.pid}\n`)
      }
      catch { /* the data dir went away: nothing to say */ }
    }
  }, BEAT_MS)
  timer.unref()
  return () => {
    clearInterval(timer)
    rmSync(path, { force: true })
  }
}
