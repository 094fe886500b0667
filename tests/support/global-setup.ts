import type { TestProject } from 'vitest/node'
import { startServer } from './server'

/** Admin e-mail of the shared e2e server (NUXT_ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'admin@e2e.test'

/**
 * One built server per project for the whole run, with rate limits off, a fresh data
 * dir and, in the PostgreSQL projects (`env.TEST_ENGINE`), a fresh database. This runs
 * in vitest's main process, where a project's `env` is not applied: read it here.
 */
export async function setup(project: TestProject) {
  const engine = (project.config.env?.TEST_ENGINE ?? process.env.TEST_ENGINE) === 'postgres' ? 'postgres' : 'sqlite'
  const fastPath = project.config.env?.TEST_API_FAST_PATH
  const server = await startServer({ NUXT_ADMIN_EMAILS: ADMIN_EMAIL, ...(fastPath ? { NUXT_API_FAST_PATH: fastPath } : {}) }, { engine })
  project.provide('baseURL', server.url)
  project.provide('dataDir', server.dataDir)
  project.provide('databaseUrl', server.databaseUrl)
  return () => server.stop()
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    dataDir: string
    /** NUXT_DATABASE_URL of the shared server: '' on SQLite (`<dataDir>/app.sqlite`). */
    databaseUrl: string
  }
}
