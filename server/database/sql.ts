/**
 * The one way this code base writes a query: SQL text in a tagged template,
 * `sql\`SELECT id FROM uploads WHERE user_id = ${userId}\``. Interpolated
 * values are bound parameters; a nested `sql` piece is spliced in with its
 * own parameters; `sql.raw` splices trusted text (column lists, orderings);
 * `dialects({ sqlite, postgres })` is a piece that differs between the two
 * engines, written beside its twin. A query renders to `?` placeholders for
 * SQLite and `$1, $2, …` for PostgreSQL.
 */

export type Dialect = 'sqlite' | 'postgres'

export class Query {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
    /** Planned for its values on every run (`sql.replanned`). */
    readonly replanned = false,
  ) {}
}

class Raw {
  constructor(readonly text: string) {}
}

class DialectPiece {
  constructor(readonly sqlite: Piece, readonly postgres: Piece) {}
}

type Piece = Query | Raw | DialectPiece

export interface RenderedQuery {
  text: string
  values: unknown[]
  /** The query or a piece of it is `sql.replanned`. */
  replanned: boolean
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Query {
  return new Query(strings, values)
}

/** Trusted SQL text spliced in as is (never user input). */
sql.raw = (text: string): Raw => new Raw(text)

/**
 * A piece whose best plan depends on its values, as a range that may hold a
 * thousandth of the rows or all of them: PostgreSQL plans a statement that
 * holds it for its values every time it runs, where other statements may be
 * given one plan for all values (server/database/postgres.ts). SQLite plans
 * every statement once; there it changes nothing.
 */
sql.replanned = (query: Query): Query => new Query(query.strings, query.values, true)

/** Pieces joined with a separator: `sql.join(ids.map(id => sql\`${id}\`))`. */
sql.join = (pieces: readonly Piece[], separator = ', '): Query => {
  const strings = ['']
  for (let i = 1; i < pieces.length; i++) strings.push(separator)
  strings.push('')
  return new Query(strings, pieces)
}

/** A piece written once per engine. */
export function dialects(pieces: { sqlite: Piece | string, postgres: Piece | string }): DialectPiece {
  const piece = (p: Piece | string) => typeof p === 'string' ? new Raw(p) : p
  return new DialectPiece(piece(pieces.sqlite), piece(pieces.postgres))
}

/** A bound value as both drivers take it: flags are 0/1 integers in both schemas. */
function bindable(value: unknown): unknown {
  if (value === undefined) return null
  if (typeof value === 'boolean') return value ? 1 : 0
  return value
}

const isPiece = (value: unknown): value is Piece => value instanceof Query || value instanceof Raw || value instanceof DialectPiece

/** Text of queries without pieces, per call site (a template's strings array is the same object every time). */
const renderedText = new WeakMap<readonly string[], { sqlite?: string, postgres?: string }>()

export function render(query: Query, dialect: Dialect): RenderedQuery {
  if (!query.values.some(isPiece)) {
    let texts = renderedText.get(query.strings)
    if (!texts) renderedText.set(query.strings, texts = {})
    let text = texts[dialect]
    if (text === undefined) {
      text = query.strings[0]!
      for (let i = 1; i < query.strings.length; i++) text += (dialect === 'sqlite' ? '?' : `$${i}`) + query.strings[i]
      texts[dialect] = text
    }
    return { text, values: query.values.map(bindable), replanned: query.replanned }
  }
  const rendered: RenderedQuery = { text: '', values: [], replanned: false }
  rendered.text = renderPiece(query, dialect, rendered)
  return rendered
}

function renderPiece(piece: Piece, dialect: Dialect, into: { values: unknown[], replanned: boolean }): string {
  if (piece instanceof Raw) return piece.text
  if (piece instanceof DialectPiece) return renderPiece(piece[dialect], dialect, into)
  if (piece.replanned) into.replanned = true
  const values = into.values
  let text = piece.strings[0]!
  for (let i = 0; i < piece.values.length; i++) {
    const value = piece.values[i]
    if (isPiece(value)) text += renderPiece(value, dialect, into)
    else {
      values.push(bindable(value))
      text += dialect === 'sqlite' ? '?' : `$${values.length}`
    }
    text += piece.strings[i + 1]
  }
  return text
}

/** `value IN (…)` over a list of values, as one bound parameter on both engines. */
export function inList(values: readonly (string | number)[]): Query {
  return sql`${dialects({
    sqlite: sql`IN (SELECT value FROM json_each(${JSON.stringify(values)}))`,
    postgres: sql`= ANY(${values})`,
  })}`
}

/** Row locks of a SELECT inside a transaction (SQLite has one writer, so none are needed there). */
export const FOR_UPDATE = dialects({ sqlite: '', postgres: ' FOR UPDATE' })
export const FOR_SHARE = dialects({ sqlite: '', postgres: ' FOR SHARE' })

/** The PostgreSQL call behind `tx.lock(key, mode)`: an advisory lock held until the transaction ends. */
export function advisoryLock(key: string, mode: 'exclusive' | 'shared'): Query {
  return mode === 'shared'
    ? sql`pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`
    : sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`
}

/**
 * `tx.lock(key, 'shared')`, also as a select-list entry (with its leading
 * comma) that takes the lock with the statement it is in: one round trip less
 * where a write's first statement can carry it. The entry is nothing on
 * SQLite, whose `lock` has nothing to do.
 */
export interface SharedHold {
  key: string
  entry: DialectPiece
}

export function sharedHold(key: string): SharedHold {
  return { key, entry: dialects({ sqlite: '', postgres: sql`, ${advisoryLock(key, 'shared')} AS held` }) }
}
