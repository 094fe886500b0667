/**
 * `npm run db:triggers`: writes the current trigger text of each engine, as the
 * migrations leave it, to drizzle/<dialect>-triggers.sql (kept counts and copies
 * are kept by these triggers; reading them otherwise means replaying every
 * migration). PostgreSQL needs TEST_DATABASE_URL (any cluster where a throwaway
 * database may be created; `scripts/engines.sh npm run db:triggers` starts one).
 * tests/unit/kept-counts.test.ts fails while a file is stale.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from './lib/database'
import { triggerText } from './lib/triggers'

const dialects = ['sqlite', ...(process.env.TEST_DATABASE_URL ? ['postgres' as const] : [])] as const
for (const dialect of dialects) {
  const file = join(ROOT, 'drizzle', `${dialect}-triggers.sql`)
  writeFileSync(file, await triggerText(dialect, process.env.TEST_DATABASE_URL))
  console.info(`wrote ${file}`)
}
if (!process.env.TEST_DATABASE_URL) console.warn('TEST_DATABASE_URL is not set: drizzle/postgres-triggers.sql was left as it was')
