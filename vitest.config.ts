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

/** Browser files that run in browser-pg only (below). */
const ON_ONE_SIDE = ['image-slots', 'voting-loop', 'pages', 'duel', 'my-uploads']

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
        // The picture-size tests depend on no engine, and the flows of the voting loop, the
        // pages, This or That and my uploads show what e2e checks of both engines' API: they
        // run once, in browser-pg, where they even out the two halves of `npm test`
        // (scripts/test-engines.sh), which otherwise left one half running alone for its
        // last minutes.
        test: { name: 'browser', ...browser, exclude: [...configDefaults.exclude, ...ON_ONE_SIDE.map(name => `tests/browser/${name}.test.ts`)] },
      },
      {
        resolve: { alias },
        test: {
          name: 'browser-pg',
          ...browser,
          ...postgres,
          // What PostgreSQL can change in a page is what its rows say: the accessibility
          // walk's pages in the system's dark scheme on a phone (every page rendered from
          // PostgreSQL, held to the console rule; its light pages come from SQLite) and
          // the flows whose pages show what the engine counts, ranks, finds or hides run.
          // The markup and pixel audits, how the pages show a 429 (the limiter
          // keeps its counts in memory or Redis), and the flows that are about the browser
          // (forms, keys, sign-in steps, passkeys, progress, stalls) do not depend on where
          // rows live: they run in `browser` only, and their API on PostgreSQL in e2e-pg.
          // The picture-size, voting-loop, pages, This or That and my-uploads tests run here
          // only (ON_ONE_SIDE); the phone layout's, which depend on no engine, and the
          // anonymous vote's keys and memory (its counts are e2e-pg's) in `browser` only.
          exclude: [
            ...configDefaults.exclude,
            ...['console', 'rate-limited', 'styles', 'copy',
              'upload-form', 'upload-progress', 'link-embed', 'card-links', 'header', 'keyboard-vote',
              'stalled-requests', 'cross-site-form', 'account', 'mfa', 'passkeys', 'oauth', 'api-token',
              'mobile-layout', 'anonymous-vote',
            ].map(name => `tests/browser/${name}.test.ts`),
          ],
        },
      },
    ],
  },
})
