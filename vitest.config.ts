import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

const alias = { '#shared': fileURLToPath(new URL('./shared', import.meta.url)) }

/**
 * The unit files of a worker share one module graph too (`isolate: false`: a third of
 * the unit run was spent importing), but for those that count what the process has
 * kept since it started.
 */
const unit = {
  include: ['tests/unit/**/*.test.ts'],
  environment: 'node',
  // Some unit tests seed a real PostgreSQL database: on a busy machine that alone outlasts vitest's 5 s.
  testTimeout: 20_000,
}
const IN_A_PROCESS_OF_THEIR_OWN = ['tests/unit/pg-statements.test.ts']

/**
 * The e2e files of a worker share one module graph (`isolate: false`): re-importing the
 * support modules for every file cost a quarter of the SQLite e2e run's CPU. Nothing in
 * them keeps state a file could leave behind but connections to the worker's own server.
 */
const e2e = {
  include: ['tests/e2e/**/*.test.ts'],
  globalSetup: ['tests/support/global-setup.ts'],
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
}

/** The browser files of a worker share one module graph as well, for the same reason. */
const browser = {
  include: ['tests/browser/**/*.test.ts'],
  globalSetup: ['tests/support/global-setup.ts'],
  isolate: false,
  fileParallelism: false,
  testTimeout: 60_000,
  hookTimeout: 60_000,
}

/**
 * The `-pg` projects run the same files against PostgreSQL: every server they start
 * gets its own database on the TEST_DATABASE_URL cluster (`scripts/engines.sh`).
 */
const postgres = { env: { TEST_ENGINE: 'postgres' } }

/**
 * Where each browser file runs. A page shows what the API answers, and e2e and e2e-pg
 * check every API on both engines, so most browser flows run once, on one engine, shared
 * out so that the two halves of `npm test` (scripts/test-engines.sh) end together: a
 * clean-clone CI run must stay well under 30 minutes on two cores.
 *
 * On both: the accessibility audit (its light pages come from SQLite, its dark phone
 * pages from PostgreSQL: every page rendered by each engine and held to the console
 * rule), comments and search (what the engine threads and finds), and the smoke test.
 */
const BROWSER_PG_ONLY = [
  // Pages whose cards and counts come from what the engine ranks, counts or hides.
  'voting-loop', 'pages', 'duel', 'my-uploads', 'admin', 'favourites', 'private-upload', 'edit',
  // Picture sizes: no engine involved, placed here for the balance.
  'image-slots',
]
const BROWSER_ONLY = [
  // The markup and pixel audits, how pages show a 429 (the limiter keeps its counts in
  // memory or Redis), and the flows about the browser: forms, keys, sign-in steps,
  // passkeys, progress, stalls, the phone layout, the anonymous vote's memory.
  'console', 'rate-limited', 'styles', 'copy', 'upload-form', 'upload-progress', 'link-embed',
  'card-links', 'header', 'keyboard-vote', 'stalled-requests', 'cross-site-form', 'account',
  'mfa', 'passkeys', 'oauth', 'api-token', 'mobile-layout', 'anonymous-vote',
  // Flows whose engine side e2e-pg checks: placed here for the balance.
  'moderation', 'ratings', 'upload-vote', 'removal',
]
const browserFiles = (names: string[]) => names.map(name => `tests/browser/${name}.test.ts`)

/**
 * The SQLite e2e project runs its servers with the API fast path off
 * (NUXT_API_FAST_PATH=false): every answer there comes from Nitro's pipeline,
 * so both ways of answering the hot routes pass the same e2e tests (e2e-pg
 * and the browser projects run with it on; tests/e2e/fast-path.test.ts
 * turns it on for itself).
 */
const pipelineOnly = { env: { TEST_API_FAST_PATH: 'false' } }

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', ...unit, exclude: [...configDefaults.exclude, ...IN_A_PROCESS_OF_THEIR_OWN], isolate: false },
      },
      {
        resolve: { alias },
        test: { name: 'unit-isolated', ...unit, include: IN_A_PROCESS_OF_THEIR_OWN },
      },
      {
        resolve: { alias },
        test: { name: 'e2e', ...e2e, ...pipelineOnly },
      },
      {
        resolve: { alias },
        test: { name: 'e2e-pg', ...e2e, ...postgres },
      },
      {
        resolve: { alias },
        test: { name: 'browser', ...browser, exclude: [...configDefaults.exclude, ...browserFiles(BROWSER_PG_ONLY)] },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser-pg',
          ...browser,
          ...postgres,
          exclude: [...configDefaults.exclude, ...browserFiles(BROWSER_ONLY)],
        },
      },
    ],
  },
})
