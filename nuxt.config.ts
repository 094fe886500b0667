import { fileURLToPath } from 'node:url'

// Every setting is a runtimeConfig key, overridable by its NUXT_* variable
// (see README.md "Configuration"). Defaults let `npm start` work with nothing set.
const rateLimit = (max: number, windowSeconds: number) => ({ max, windowSeconds })

// The pages' route paths, for the route template of a page request in logs and metrics (server/utils/route-template.ts).
/** TypeScript options of one of the generated tsconfigs (in .nuxt): incremental, its state in node_modules/.cache. */
const incrementalIn = (name: string) => ({ incremental: true, tsBuildInfoFile: `../node_modules/.cache/typecheck/${name}.tsbuildinfo` })

// PROFILE_BUILD=1: the browser's code not minified and with source maps, for `npm run profile:page` to name source lines.
const profileBuild = process.env.PROFILE_BUILD === '1'

const pageRoutes: string[] = []
// Every stylesheet of the browser's build, as the manifest names them before Nuxt drops the ones it inlines (server/plugins/inlined-styles.ts).
const buildStylesheets: string[] = []
interface PageRoute { path: string, children?: PageRoute[] }
const pagePaths = (pages: PageRoute[], parent = ''): string[] => pages.flatMap((page) => {
  const path = page.path.startsWith('/') ? page.path : `${parent}/${page.path}`
  return [path, ...pagePaths(page.children ?? [], path)]
})

export default defineNuxtConfig({
  modules: ['@nuxt/eslint', 'nuxt-auth-utils'],
  devtools: { enabled: false },
  app: {
    head: {
      htmlAttrs: { lang: 'en' },
      title: 'Does It Fuck?',
      meta: [
        { name: 'viewport', content: 'width=device-width, initial-scale=1' },
        { name: 'theme-color', content: '#6a2bd9' },
      ],
      link: [{ rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }],
    },
  },
  runtimeConfig: {
    dataDir: './data',
    databaseUrl: '',
    databasePoolMax: 10,
    redisUrl: '',
    redisPrefix: 'dif:',
    sessionSecret: '',
    sessionPassword: '',
    ipHashSecret: '',
    totpKey: '',
    adminEmails: '',
    smtpUrl: '',
    mailFrom: 'Does It Fuck? <no-reply@localhost>',
    trustProxy: false,
    // GET /metrics answers only when this is set, to `Authorization: Bearer <token>` (docs/operations.md).
    metricsToken: '',
    // `pretty`: one line for people per log entry instead of JSON.
    logFormat: 'json',
    // false: the hot API routes take Nitro's whole pipeline too (server/plugins/api-fast-path.ts).
    apiFastPath: true,
    imageFetchAllowPrivate: false,
    // Milliseconds a search may spend weighing uploads one by one before it is refused, 400
    // `Query too complex`; 0 refuses every such search (server/services/search-budget.ts).
    searchBudgetMs: 200,
    // `fs`: <data>/media; `s3`: the bucket below (docs/behaviour.md, Scaling out).
    mediaStorage: 'fs',
    s3: {
      endpoint: '',
      region: 'us-east-1',
      bucket: '',
      accessKeyId: '',
      secretAccessKey: '',
      forcePathStyle: true,
      answerSeconds: 15,
    },
    rateLimit: {
      enabled: true,
      auth: rateLimit(10, 15 * 60),
      upload: rateLimit(20, 60 * 60),
      vote: rateLimit(30, 60),
      anonVote: rateLimit(10, 60),
      // Per account: posting and editing comments.
      comment: rateLimit(10, 60),
      general: rateLimit(100, 60),
      // Per account, besides GENERAL: an export reads the whole account.
      export: rateLimit(3, 60 * 60),
    },
    oauth: {
      github: {
        clientId: '',
        clientSecret: '',
        authorizationURL: 'https://github.com/login/oauth/authorize',
        tokenURL: 'https://github.com/login/oauth/access_token',
        apiURL: 'https://api.github.com',
      },
      google: {
        clientId: '',
        clientSecret: '',
        authorizationURL: 'https://accounts.google.com/o/oauth2/v2/auth',
        tokenURL: 'https://oauth2.googleapis.com/token',
        userURL: 'https://www.googleapis.com/oauth2/v3/userinfo',
      },
      discord: {
        clientId: '',
        clientSecret: '',
        authorizationURL: 'https://discord.com/oauth2/authorize',
        tokenURL: 'https://discord.com/api/oauth2/token',
        userURL: 'https://discord.com/api/users/@me',
      },
    },
    public: {
      siteUrl: 'http://localhost:3000',
    },
  },
  srcDir: '.',
  // The server runs without --enable-source-maps, so its source maps were never read.
  sourcemap: { server: false, client: false },
  experimental: {
    // No route rule needs the client-side app manifest: its code and a /_nuxt/builds request on every first visit.
    appManifest: false,
    // A page's code that fails to load is handled by plugins/chunk-errors.client.ts, which
    // reloads only when the server answers (offline, Nuxt's reload showed the browser's error page).
    emitRouteChunkError: 'manual',
  },
  compatibilityDate: '2026-11-01',
  nitro: {
    // Build assets (/_nuxt JS, CSS) and public files are written beside their .br and .gz
    // twins at build time; Nitro picks the one Accept-Encoding allows. Pages and JSON are
    // compressed per response (server/utils/compression.ts).
    compressPublicAssets: { gzip: true, brotli: true },
    // The server runs on Node 20 (package.json engines): its code is compiled for it, not
    // lowered to ES2019 (Nitro's default).
    esbuild: { options: { target: 'node20' } },
    typescript: { tsConfig: { compilerOptions: incrementalIn('server') } },
    // The migrations and their journal; drizzle-kit's snapshots (6 MB) are for generating the next one.
    serverAssets: [{ baseName: 'migrations', dir: '../drizzle', ignore: ['**/*_snapshot.json', '*-triggers.sql'] }],
    // QUICK_BUILD=1 (`npm run test:quick`) leaves out the traced copy of the dependencies
    // (.output/server/node_modules): the server loads them from the project's node_modules,
    // so that .output only runs here. `npm run build` makes the one to deploy.
    externals: { external: ['better-sqlite3', 'sharp', '@node-rs/argon2'], trace: process.env.QUICK_BUILD !== '1' },
    // The build log lists sizes without gzipping all of .output (node_modules included) for it.
    logging: { compressedSizes: false },
  },
  // No component here uses the Options API: Vue leaves it out of the first-load JavaScript.
  // The browser's JavaScript is minified by terser, which writes it about 5% smaller as
  // brotli than esbuild does (docs/performance.md, "First-load JavaScript").
  vite: {
    vue: { features: { optionsAPI: false } },
    // Browsers preload modules themselves (Safari since 17); an older one loads the same
    // chunks as the entry imports them, only later. Nuxt's polyfill is left out of the entry.
    // Rollup merges a chunk under 30 KB into one loaded with it where no module's side effects
    // would run earlier: a first visit asks for about half as many files, each of which a slow
    // network makes the first paint wait for (docs/performance.md, "First-load JavaScript").
    $client: {
      build: {
        minify: profileBuild ? false : 'terser',
        sourcemap: profileBuild,
        modulePreload: { polyfill: false },
        rollupOptions: { output: { experimentalMinChunkSize: 30_000 } },
      },
    },
  },
  // Incremental: a type check re-checks only what changed since the last one. Its state is
  // kept outside .nuxt, which `nuxt prepare` empties (tsconfig paths are relative to .nuxt).
  typescript: {
    strict: true,
    tsConfig: { compilerOptions: incrementalIn('app') },
    nodeTsConfig: { compilerOptions: incrementalIn('node') },
    sharedTsConfig: { compilerOptions: incrementalIn('shared') },
  },
  telemetry: false,
  hooks: {
    'pages:resolved'(pages) {
      pageRoutes.splice(0, pageRoutes.length, ...pagePaths(pages))
    },
    'build:manifest'(manifest) {
      buildStylesheets.splice(0, buildStylesheets.length, ...new Set(Object.values(manifest).flatMap(chunk => chunk.css ?? [])))
    },
    // Our handler answers /api/** errors in the API's JSON shape (docs/behaviour.md,
    // Errors); error-pages.ts logs a page's 4xx in one line; Nuxt's own (already set when
    // this hook runs) still renders the error page elsewhere.
    'nitro:config'(config) {
      const nuxtHandler = config.errorHandler
      config.errorHandler = [
        fileURLToPath(new URL('./server/error.ts', import.meta.url)),
        fileURLToPath(new URL('./server/error-pages.ts', import.meta.url)),
        ...[nuxtHandler ?? []].flat(),
      ]
      // Read when the server is bundled, after the pages are resolved.
      config.virtual = {
        ...config.virtual,
        '#page-routes': () => `export default ${JSON.stringify(pageRoutes)}`,
        '#build-stylesheets': () => `export default ${JSON.stringify(buildStylesheets)}`,
      }
    },
  },
  // nuxt-auth-utils carries the OAuth handshake only (our sign-in is the auth-token cookie):
  // without this, every server render fetched an empty session and sealed a new one (two PBKDF2 runs).
  auth: { loadStrategy: 'none' },
  eslint: {
    config: { stylistic: true },
  },
})
