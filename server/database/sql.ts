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
  constructor(readonly strings: readonly string[], readonly values: readonly unknown[]) {}
}

class Raw {
  constructor(readonly text: string) {}
}

class DialectPiece {
  constructor(readonly sqlite: Piece, readonly postgres: Piece) {}
}

type Piece = Query | Raw | DialectPiece

export interface RenderedQuery { text: string, values: unknown[] }

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Query {
  return new Query(strings, values)
}

/** Trusted SQL text spliced in as is (never user input). */
sql.raw = (text: string): Raw => new Raw(text)

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
    return { text, values: query.values.map(bindable) }
  }
  const values: unknown[] = []
  const text = renderPiece(query, dialect, values)
  return { text, values }
}

function renderPiece(piece: Piece, dialect: Dialect, values: unknown[]): string {
  if (piece instanceof Raw) return piece.text
  if (piece instanceof DialectPiece) return renderPiece(piece[dialect], dialect, values)
  let text = piece.strings[0]!
  for (let i = 0; i < piece.values.length; i++) {
    const value = piece.values[i]
    if (isPiece(value)) text += renderPiece(value, dialect, values)
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
