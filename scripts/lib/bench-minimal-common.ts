/**
 * What the minimal references of `npm run bench` share (scripts/lib/bench-minimal-writes.ts
 * and bench-minimal-uploads.ts): a refusal with its status, the caller's check, and a
 * PostgreSQL transaction. None of it is the site's code: the references are held apart
 * from ours on purpose (docs/performance.md, "The method").
 */
import type { IncomingMessage } from 'node:http'
import { jwtVerify } from 'jose'
import type pg from 'pg'

/** A request refused with `status` and `message` in the error shape. */
export class Refusal extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

export type Session = { user_id: string, expires_at: string, revoked_at: string | null }

/** The caller's user id, as the site checks it: the HS256 JWT in the `auth-token` cookie, then its session row (not revoked, not expired); 401 otherwise. */
export async function verifiedCaller(req: IncomingMessage, key: Uint8Array, session: (id: string) => Promise<Session | undefined>): Promise<string> {
  const unauthorized = new Refusal(401, 'Authentication required')
  const token = /(?:^|;\s*)auth-token=([^;]+)/.exec(req.headers.cookie ?? '')?.[1]
  if (!token) throw unauthorized
  const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['sub', 'sid', 'exp'] }).catch(() => {
    throw unauthorized
  })
  const row = await session(payload.sid as string)
  if (!row || row.revoked_at || row.user_id !== payload.sub || row.expires_at < new Date().toISOString()) throw unauthorized
  return row.user_id
}

/** A query in a transaction: a named (prepared) statement with its values. */
export type TransactionQuery = <T extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) => Promise<pg.QueryResult<T>>

/** `work` in one transaction on a client of `pool`, rolled back if it throws. */
export async function pgTransaction<R>(pool: pg.Pool, work: (query: TransactionQuery) => Promise<R>): Promise<R> {
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    const result = await work((name, text, values) => client.query({ name, text, values }))
    await client.query('COMMIT')
    return result
  }
  catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
  finally {
    client.release()
  }
}
