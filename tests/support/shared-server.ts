import { inject } from 'vitest'

/** One of the servers `tests/support/global-setup.ts` starts for a project. */
export interface SharedServer {
  baseURL: string
  dataDir: string
  /** NUXT_DATABASE_URL of the server: '' on SQLite (`<dataDir>/app.sqlite`). */
  databaseUrl: string
}

/**
 * The shared server of the worker running this file. A project gets one server per
 * worker, and a worker runs one file at a time, so two files never share a server at
 * once: a file may count every upload, or read the server's database, without another
 * file writing in between (CONTRIBUTING.md, "The fast loop").
 */
export function sharedServer(): SharedServer {
  const servers = inject('servers')
  const worker = Number(process.env.VITEST_POOL_ID ?? 1)
  return servers[(worker - 1) % servers.length]!
}
