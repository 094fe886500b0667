import { defineConfig } from 'drizzle-kit'

// One schema per dialect, each with its own generated migrations:
// `npm run db:generate` runs drizzle-kit once for each (DB_DIALECT picks one).
const postgres = process.env.DB_DIALECT === 'postgres'

export default defineConfig(postgres
  ? { dialect: 'postgresql', schema: './server/database/schema-postgres.ts', out: './drizzle/postgres' }
  : { dialect: 'sqlite', schema: './server/database/schema.ts', out: './drizzle/sqlite' })
