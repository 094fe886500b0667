import { failureText } from '../database/port'

let starting: Promise<void> = Promise.resolve()
let started = false
/** What to say once start-up work is done (the start banner), in the order given. */
const reports: (() => void)[] = []

/**
 * Says something once start-up work is done, never when it fails: a start that
 * fails ends with its one line, not after a banner saying where to open the site.
 */
export function reportAfterStart(report: () => void): void {
  if (started) report()
  else reports.push(report)
}

/**
 * Records the start-up work (migrations, secrets). When it fails, the
 * process ends with one line naming the cause: a server that cannot reach
 * its database or read its secrets must not keep listening.
 */
export function markStarting(work: Promise<void>): void {
  starting = work
  work.then(() => {
    started = true
    for (const report of reports.splice(0)) report()
  }, () => {})
  work.catch((error: unknown) => {
    console.error(`[start] cannot start: ${failureText(error)}`)
    process.exit(1)
  })
}

let newDatabase = false

/** Said by the start-up work: this start made the database's schema from nothing (a new site, not a restart or a restore). */
export function noteNewDatabase(isNew: boolean): void {
  newDatabase = isNew
}

/** Whether this start made the database from nothing (see noteNewDatabase). */
export function databaseWasNew(): boolean {
  return newDatabase
}

/** True once the start-up work recorded by `markStarting` is done (false before it is recorded). */
export function isServerStarted(): boolean {
  return started
}

/** Resolves once start-up work is done (at once afterwards). */
export function serverStarted(): Promise<void> {
  return starting
}

/**
 * A port already taken (or any other failure to listen, or a HOST that does not resolve) reaches Nitro only as
 * an uncaught exception, which it logs with a stack trace and survives; with
 * nothing left to do the process then exits 0, which a supervisor takes for a
 * clean stop. This ends it with one line and exit code 1 instead.
 */
export function exitOnListenError(): void {
  process.prependListener('uncaughtException', (error: NodeJS.ErrnoException & { address?: string, port?: number, hostname?: string }) => {
    if (error.syscall === 'listen') {
      console.error(`[start] cannot start: cannot listen on ${error.address ?? ''}:${error.port ?? ''} (${error.code ?? error.message})`)
      process.exit(1)
    }
    // HOST is looked up before listening: a name that does not resolve fails there.
    if (error.syscall === 'getaddrinfo') {
      console.error(`[start] cannot start: cannot resolve HOST ${error.hostname ?? ''} (${error.code ?? error.message})`)
      process.exit(1)
    }
  })
}
