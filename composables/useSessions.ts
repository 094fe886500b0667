import type * as v from 'valibot'
import type { SuccessSchema } from '#shared/schemas/common'
import type { SessionInfo, SessionListSchema } from '#shared/schemas/sessions'

export type { SessionInfo }

/** The caller's signed-in sessions: list, and sign one out. */
export function useSessions() {
  const api = useApi()
  const list = () => api<v.InferOutput<typeof SessionListSchema>>('/api/auth/sessions')
  const revoke = (id: string) => api<v.InferOutput<typeof SuccessSchema>>(`/api/auth/sessions/${id}`, { method: 'DELETE' })
  return { list, revoke }
}

/** "Chrome on Linux" from a User-Agent string, or a plain fallback. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device'
  const browser = [
    [/Edg\//, 'Edge'], [/OPR\/|Opera/, 'Opera'], [/Firefox\//, 'Firefox'], [/Chrom(e|ium)\//, 'Chrome'],
    [/Safari\//, 'Safari'], [/curl\//, 'curl'], [/node|undici/i, 'Script'],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined
  const system = [
    [/Android/, 'Android'], [/iPhone|iPad|iOS/, 'iOS'], [/Windows/, 'Windows'], [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux'],
  ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] as string | undefined
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system ?? 'Other client'
}
