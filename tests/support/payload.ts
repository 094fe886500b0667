/**
 * Nuxt's payload in a rendered page (`<script id="__NUXT_DATA__">`, devalue's
 * format): a flat array whose entries refer to each other by index.
 */
export function pagePayload(html: string): { json: string, flat: unknown[] } {
  const found = html.match(/<script[^>]*id="__NUXT_DATA__"[^>]*>([^<]*)<\/script>/)
  if (!found) throw new Error('no Nuxt payload in the page')
  return { json: found[1]!, flat: JSON.parse(found[1]!) as unknown[] }
}

/**
 * The payload as plain data. Vue's wrappers are plain values here, and so are
 * API answers (sent as their JSON text, plugins/api-answers.ts); other tagged
 * entries (Set, NuxtError, ...) keep their tag.
 */
export function revivePayload(flat: unknown[]): unknown {
  const at = (index: number): unknown => {
    if (index < 0) return undefined
    const value = flat[index]
    if (Array.isArray(value)) {
      if (value[0] === 'Reactive' || value[0] === 'ShallowReactive') return at(value[1] as number)
      if (value[0] === 'ApiAnswer') return JSON.parse(at(value[1] as number) as string)
      if (typeof value[0] === 'string') return [value[0], ...value.slice(1).map(i => (typeof i === 'number' ? at(i) : i))]
      return value.map(i => at(i as number))
    }
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, i]) => [key, at(i as number)]))
    return value
  }
  return at(0)
}
