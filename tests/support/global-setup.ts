import type { TestProject } from 'vitest/node'
import { startServer, type RunningServer } from './server'

/** Admin e-mail of the shared e2e server (NUXT_ADMIN_EMAILS). */
export const ADMIN_EMAIL = 'admin@e2e.test'

let server: RunningServer | undefined

/** One built server for the whole run, with rate limits off and a fresh data dir. */
export async function setup(project: TestProject) {
  server = await startServer({ NUXT_ADMIN_EMAILS: ADMIN_EMAIL })
  project.provide('baseURL', server.url)
  project.provide('dataDir', server.dataDir)
}

export async function teardown() {
  await server?.stop()
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
    dataDir: string
  }
}
