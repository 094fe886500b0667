import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiOperation, ApiPaths } from '../../server/utils/openapi'
import { routeCachePolicy } from '../../server/utils/http-cache'
import { rateLimitCategory } from '../../server/utils/rate-limit'
import { documentedPaths, ROUTE_TABLE, type RouteRecord } from '../../server/utils/route-table'
import { routeMethods } from '../../server/utils/route-methods'

const ID = '0b6f3c1e-5d2a-4f7e-9a61-2c8d4e5f6a7b'

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

/**
 * `METHOD route` of every handler file under `dir`, as Nitro routes it: `[param]` → `:param`,
 * `[...rest]` → `**:rest`, `index` → its folder, `.get.ts` → GET; a file without a method
 * suffix answers every method (`*`).
 */
function handlerRoutes(dir: 'server/api' | 'server/routes'): string[] {
  const prefix = dir === 'server/api' ? '/api' : ''
  return filesUnder(dir).filter(file => file.endsWith('.ts')).map((file) => {
    const name = relative(dir, file).replace(/\.ts$/, '')
    const method = name.match(/\.(get|post|put|patch|delete)$/)?.[1]?.toUpperCase() ?? '*'
    const route = `${prefix}/${name.replace(/\.(get|post|put|patch|delete)$/, '')}`
      .replace(/\/index$/, '')
      .replace(/\[\.\.\.(\w+)\]/g, '**:$1')
      .replace(/\[(\w+)\]/g, ':$1')
    return `${method} ${route}`
  }).sort()
}

const recordKeys = ROUTE_TABLE.map(record => `${record.method} ${record.route}`)

/** Every operation each server/openapi file defines, with where it is written. */
async function writtenOperations(): Promise<{ where: string, operation: ApiOperation }[]> {
  const files = readdirSync('server/openapi').filter(name => name.endsWith('.ts') && name !== 'index.ts' && name !== 'components.ts')
  const found: { where: string, operation: ApiOperation }[] = []
  for (const name of files) {
    const paths = (await import(`../../server/openapi/${name.replace(/\.ts$/, '')}.ts`) as { default: ApiPaths }).default
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) found.push({ where: `${name}: ${method.toUpperCase()} ${path}`, operation: operation! })
    }
  }
  return found
}

function operationsOf(record: RouteRecord): ApiOperation[] {
  if (!record.openapi) return []
  return typeof record.openapi.operationId === 'string' ? [record.openapi as ApiOperation] : Object.values(record.openapi)
}

describe('the route table', () => {
  it('has one record per route handler under server/api, and only the catch-all answers every method', () => {
    const handlers = handlerRoutes('server/api')
    expect(handlers.filter(key => key.startsWith('* '))).toEqual(['* /api/**:path'])
    expect(handlers.filter(key => !key.startsWith('* ') && !recordKeys.includes(key))).toEqual([])
    expect(new Set(recordKeys).size).toBe(recordKeys.length)
  })

  it('has a handler for every record', () => {
    const handlers = new Set([...handlerRoutes('server/api'), ...handlerRoutes('server/routes')])
    expect(recordKeys.filter(key => !handlers.has(key))).toEqual([])
  })

  it('names every operation written in server/openapi exactly once, and every /api record has one', async () => {
    const named = ROUTE_TABLE.flatMap(operationsOf)
    const unnamed = (await writtenOperations()).filter(({ operation }) => named.filter(op => op === operation).length !== 1).map(({ where }) => where)
    expect(unnamed).toEqual([])
    expect(ROUTE_TABLE.filter(record => operationsOf(record).length === 0).map(record => record.route)).toEqual([])
  })

  it('says the body its operation documents, and a cache policy exactly for GETs under /api', () => {
    const wrong = ROUTE_TABLE.filter((record) => {
      const [operation] = operationsOf(record)
      const body = operation?.body?.multipart ? 'multipart' : operation?.body?.json ? 'json' : 'none'
      const cached = record.method === 'GET' && record.route.startsWith('/api/')
      return record.body !== body || (record.cache !== null) !== cached
    }).map(record => `${record.method} ${record.route}`)
    expect(wrong).toEqual([])
  })

  // Written from rateLimitCategory before it read the table: junk paths, trailing slashes, unknown routes and methods keep their fallbacks.
  it.each([
    ['POST', '/api/auth', 'auth'],
    ['POST', '/api/auth/', 'auth'],
    ['GET', '/api/auth', 'general'],
    ['POST', '/api/auth/oauth/mfa', 'auth'],
    ['POST', '/api/auth/passkeys/login/options?x=1', 'auth'],
    ['POST', '/api/auth/logout', 'general'],
    ['POST', '/api/auth/tokens/generate', 'general'],
    ['DELETE', `/api/auth/tokens/${ID}`, 'general'],
    ['POST', '/api/auth/passkeys/register/options', 'general'],
    ['POST', '/api/upload', 'upload'],
    ['POST', '/api/upload/', 'upload'],
    ['PUT', '/api/upload', 'general'],
    ['POST', '/api/v1/upload', 'upload'],
    ['GET', `/api/upload/${ID}`, 'general'],
    ['DELETE', `/api/upload/${ID}`, 'general'],
    ['PATCH', `/api/upload/${ID}`, 'general'],
    ['POST', '/api/vote', 'vote'],
    ['POST', '/api/vote//', 'vote'],
    ['DELETE', '/api/vote?uploadId=x', 'vote'],
    ['GET', '/api/vote', 'general'],
    ['PUT', '/api/vote', 'general'],
    ['HEAD', '/api/vote', 'general'],
    ['POST', '/api/vote/anonymous', 'anonVote'],
    ['POST', '/api/vote/next', 'general'],
    ['PUT', `/api/upload/${ID}/favourite`, 'vote'],
    ['DELETE', `/api/upload/${ID}/favourite/`, 'vote'],
    ['GET', `/api/upload/${ID}/favourite`, 'general'],
    ['POST', `/api/upload/${ID}/favourite`, 'general'],
    ['PUT', '/api/upload/a/b/favourite', 'general'],
    ['POST', `/api/upload/${ID}/comments`, 'comment'],
    ['PATCH', `/api/comments/${ID}`, 'comment'],
    ['PATCH', '/api/comments/preview', 'comment'],
    ['POST', '/api/comments/preview', 'general'],
    ['DELETE', `/api/comments/${ID}`, 'general'],
    ['PATCH', '/api/comments/a/b', 'general'],
    ['DELETE', '/api/profile', 'auth'],
    ['DELETE', '/api/profile/', 'auth'],
    ['GET', '/api/profile', 'general'],
    ['PUT', '/api/profile/preferences', 'general'],
    ['GET', '/api/duel/next', 'general'],
    ['GET', '/api/uploads', 'general'],
    ['GET', '/api/uploads/', 'general'],
    ['GET', '/api/user/x/uploads', 'general'],
    ['GET', '/api/items-recent', 'general'],
    ['GET', `/api/image/${ID}`, null],
    ['HEAD', `/api/image/${ID}?size=thumb`, null],
    ['POST', `/api/image/${ID}`, null],
    ['GET', '/api/image/a/b', null],
    ['GET', '/api/image/', 'general'],
    ['GET', '/api/health', null],
    ['POST', '/api/health', null],
    ['GET', '/api/health/', null],
    ['GET', '/api/health/x', 'general'],
    ['GET', '/api', 'general'],
    ['GET', '/api/', 'general'],
    ['GET', '/api/nothing', 'general'],
    ['OPTIONS', '/api/uploads', 'general'],
    ['GET', '/apix', null],
    ['GET', '/', null],
    ['GET', '/feeds/recent.atom', null],
    ['GET', '/_nuxt/app.js', null],
    ['POST', '/api/search/image', 'general'],
    ['GET', '/api/openapi.json', 'general'],
  ])('counts %s %s in %s', (method, path, category) => {
    expect(rateLimitCategory(method, path)).toBe(category)
  })

  it('documents no 429 where the record counts no rate limit (health, images)', () => {
    const paths = documentedPaths()
    expect(paths['/api/health']!.get!.rateLimited).toBe(false)
    expect(paths['/api/image/{id}']!.get!.rateLimited).toBe(false)
    expect(paths['/api/uploads']!.get!.rateLimited).toBeUndefined()
  })

  it('counts a duel\'s judgement by the session cookie, asking for it only there', () => {
    expect(rateLimitCategory('POST', '/api/duel', () => true)).toBe('vote')
    expect(rateLimitCategory('POST', '/api/duel/', () => false)).toBe('anonVote')
    expect(rateLimitCategory('GET', '/api/duel/next', () => {
      throw new Error('asked')
    })).toBe('general')
  })

  // Written from the cache policies before they read the table: a trailing slash keeps a private policy only (personal, profile).
  it.each([
    ['/api/uploads', 'list'],
    ['/api/uploads/', 'revalidate'],
    ['/api/uploads/filtered', 'list'],
    ['/api/search', 'list'],
    ['/api/search/', 'revalidate'],
    ['/api/search/suggest', 'revalidate'],
    ['/api/items-top-voted', 'feature'],
    ['/api/items-recent/', 'revalidate'],
    ['/api/profile', 'profile'],
    ['/api/profile/', 'profile'],
    ['/api/profile/filters', 'revalidate'],
    ['/api/auth/tokens', 'personal'],
    ['/api/auth/tokens/', 'personal'],
    ['/api/vote', 'personal'],
    ['/api/vote/', 'personal'],
    ['/api/vote/next/', 'personal'],
    ['/api/admin/users', 'personal'],
    ['/api/admin/users/', 'personal'],
    ['/api/admin/tags/rules', 'personal'],
    ['/api/user/x/uploads', 'revalidate'],
    ['/api/openapi.json', 'revalidate'],
    ['/api/tags/x', 'revalidate'],
    ['/api/auth/sessions', 'revalidate'],
  ])('gives GET %s the %s policy', (path, policy) => {
    expect(routeCachePolicy(path)).toBe(policy)
  })

  // The router takes a static segment over a parameter, so a path's methods are its static route's alone.
  it.each([
    ['/api/auth/tokens/generate', ['POST']],
    ['/api/comments/preview', ['POST']],
    ['/api/comments/preview/', ['POST']],
    [`/api/auth/tokens/${ID}`, ['DELETE']],
    [`/api/comments/${ID}`, ['DELETE', 'PATCH']],
    ['/api/upload/x', ['DELETE', 'GET', 'HEAD', 'PATCH']],
    ['/api/vote', ['DELETE', 'GET', 'HEAD', 'POST']],
    ['/api/nothing', []],
  ])('allows on %s the methods %j', (path, methods) => {
    expect([...routeMethods(ROUTE_TABLE)(path)].sort()).toEqual(methods)
  })
})
