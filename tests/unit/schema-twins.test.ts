import { getTableConfig as pgTableConfig, PgTable } from 'drizzle-orm/pg-core'
import { getTableConfig as sqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core'
import { describe, expect, it } from 'vitest'
import * as pgSchema from '../../server/database/schema-postgres'
import * as sqliteSchema from '../../server/database/schema'

/** Each table's columns (name, SQL type, nullability, key) and indexes (name, unique, columns), comparable across dialects. */
/** SQLite's `real` is an 8-byte float, PostgreSQL's `double precision`. */
const sqliteType = (type: string) => type === 'real' ? 'double precision' : type

function describeSqlite() {
  return (Object.values(sqliteSchema) as unknown[]).filter((t): t is SQLiteTable => t instanceof SQLiteTable).map((table) => {
    const config = sqliteTableConfig(table)
    return {
      name: config.name,
      columns: config.columns.map(c => ({ name: c.name, type: sqliteType(c.getSQLType()), notNull: c.notNull, primary: c.primary })).sort((a, b) => a.name.localeCompare(b.name)),
      indexes: config.indexes.map(i => ({ name: i.config.name, unique: i.config.unique, on: i.config.columns.length })).sort((a, b) => a.name.localeCompare(b.name)),
      primaryKeys: config.primaryKeys.map(k => k.columns.map(c => c.name)),
      foreignKeys: config.foreignKeys.map(k => k.reference().columns.map(c => c.name).join(',')).sort(),
    }
  }).sort((a, b) => a.name.localeCompare(b.name))
}

function describePostgres() {
  return (Object.values(pgSchema) as unknown[]).filter((t): t is PgTable => t instanceof PgTable).map((table) => {
    const config = pgTableConfig(table)
    return {
      name: config.name,
      columns: config.columns.map(c => ({ name: c.name, type: c.getSQLType(), notNull: c.notNull, primary: c.primary })).sort((a, b) => a.name.localeCompare(b.name)),
      indexes: config.indexes.map(i => ({ name: i.config.name!, unique: i.config.unique, on: i.config.columns.length })).sort((a, b) => a.name.localeCompare(b.name)),
      primaryKeys: config.primaryKeys.map(k => k.columns.map(c => c.name)),
      foreignKeys: config.foreignKeys.map(k => k.reference().columns.map(c => c.name).join(',')).sort(),
    }
  }).sort((a, b) => a.name.localeCompare(b.name))
}

describe('the SQLite schema and its PostgreSQL twin', () => {
  it('have the same tables, columns, keys and indexes', () => {
    const sqlite = describeSqlite()
    const postgres = describePostgres()
    expect(sqlite.map(t => t.name)).toEqual(postgres.map(t => t.name))
    expect(sqlite.length).toBe(39)
    for (const [i, table] of sqlite.entries()) {
      expect(postgres[i]).toEqual(table)
    }
  })
})
