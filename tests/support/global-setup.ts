import { availableParallelism } from 'node:os'
import type { TestProject } from 'vitest/node'
import { startServer } from './server'
import type { SharedServer } from './shared-server'

/** Admin e-mail of the shared e2e servers (NUXT_ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'admin@e2e.test'

/**
 * One built server per worker of a project for the whole run (`sharedServer()` picks the
 * worker's own), with rate limits off, a fresh data dir and, in the PostgreSQL projects
 * (`env.TEST_ENGINE`), a fresh database. This runs in vitest's main process, where a
 * project's `env` is not applied: read it here.
 */
export async function setup(project: TestProject) {
  const engine = (project.config.env?.TEST_ENGINE ?? process.env.TEST_ENGINE) === 'postgres' ? 'postgres' : 'sqlite'
  const fastPath = project.config.env?.TEST_API_FAST_PATH
  const env = { NUXT_ADMIN_EMAILS: ADMIN_EMAIL, ...(fastPath ? { NUXT_API_FAST_PATH: fastPath } : {}) }
  const started = await Promise.allSettled(Array.from({ length: workers(project) }, () => startServer(env, { engine })))
  const servers = started.flatMap(result => result.status === 'fulfilled' ? [result.value] : [])
  const stopAll = () => Promise.all(servers.map(server => server.stop()))
  const failed = started.find(result => result.status === 'rejected')
  if (failed) {
    await stopAll()
    throw failed.reason
  }
  project.provide('servers', servers.map((server): SharedServer => ({ baseURL: server.url, dataDir: server.dataDir, databaseUrl: server.databaseUrl })))
  return stopAll
}

/** How many files of the project run at once: vitest's own rule (the project's or the run's `maxWorkers`, else one fewer than the cores). */
function workers(project: TestProject): number {
  const configured = project.config.maxWorkers ?? project.vitest.config.maxWorkers
  if (typeof configured === 'number' && configured > 0) return configured
  return Math.max(availableParallelism() - 1, 1)
}

declare module 'vitest' {
  export interface ProvidedContext {
    servers: SharedServer[]
  }
}
