import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'

/** How often a server says it is alive, and how long after its last word it counts as gone (a kill -9). */
const BEAT_MS = 10_000
const GONE_AFTER_MS = 30_000

/**
 * Servers sharing one data dir (two processes on one SQLite file, or a second
 * start by mistake): each keeps a file in `<data>/run/` naming its process id
 * and machine, touched every 10 s and removed as it stops; one counts as alive
 * while its file is fresh, unless it is of this machine and its process is gone. At start, what a crash left (temporary files, the
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
      if (now - statSync(path).mtimeMs < GONE_AFTER_MS && !deadHere(readFileSync(path, 'utf8'))) alive = true
      else rmSync(path, { force: true })
    }
    catch { /* gone meanwhile */ }
  }
  return alive
}

let ownName: string | undefined

/** This machine and boot: a process id means something only on the machine, and the boot, that gave it. */
const HERE = `${hostname()} ${(() => {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  }
  catch {
    return ''
  }
})()}`

/**
 * Whether a server's file (`<pid>` and the machine it runs on) names a process
 * known to be gone: one of this machine and boot that no longer runs (a kill -9
 * leaves its file fresh for a while), or this very process id (a restart that was
 * given the same id, as in a container). A server elsewhere (another host, or a
 * container with a name of its own) is alive while its file is fresh.
 */
function deadHere(content: string): boolean {
  const [pidLine, where] = content.split('\n')
  const pid = Number(pidLine)
  if (where !== HERE || !Number.isInteger(pid) || pid <= 0) return false
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return false
  }
  catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'EPERM'
  }
}

/** Says this server is alive in `<data>/run/` until `stop` (called as the server closes). */
export function announceServer(dataDir: string): () => void {
  const run = join(dataDir, 'run')
  mkdirSync(run, { recursive: true })
  ownName = `${process.pid}-${randomBytes(4).toString('hex')}`
  const path = join(run, ownName)
  const content = `${process.pid}\n${HERE}\n`
  writeFileSync(path, content)
  const timer = setInterval(() => {
    const now = new Date()
    try {
      utimesSync(path, now, now)
    }
    catch {
      try {
        writeFileSync(path, content)
      }
      catch { /* the data dir went away: nothing to say */ }
    }
  }, BEAT_MS)
  timer.unref()
  const stop = () => {
    clearInterval(timer)
    rmSync(path, { force: true })
  }
  // A start that fails exits without the close hooks: its file goes anyway.
  process.once('exit', stop)
  return stop
}
