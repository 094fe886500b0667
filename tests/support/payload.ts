/**
 * Nuxt's payload in a rendered page (`<script id="__NUXT_DATA__">`, devalue's
 * format): a flat array whose entries refer to each other by index; and the
 * API answers it names by number, each a data block of its own after the
 * app's markup (`<script type="application/json" data-api-answer="n">`).
 * `markup` is the page without either.
 */
export function pagePayload(html: string): { json: string, flat: unknown[], answers: Map<number, unknown>, markup: string } {
  const found = html.match(/<script[^>]*id="__NUXT_DATA__"[^>]*>([^<]*)<\/script>/)
  if (!found) throw new Error('no Nuxt payload in the page')
  const answers = new Map<number, unknown>()
  const blocks = /<script type="application\/json" data-api-answer="(\d+)">([^<]*)<\/script>/g
  for (const [, number, text] of html.matchAll(blocks)) answers.set(Number(number), JSON.parse(text!))
  return { json: found[1]!, flat: JSON.parse(found[1]!) as unknown[], answers, markup: html.replace(found[1]!, '').replace(blocks, '') }
}

/**
 * The payload as plain data. Vue's wrappers are plain values here, and API
 * answers are the data of their blocks (`answers`); other tagged entries
 * (Set, NuxtError, ...) keep their tag.
 */
export function revivePayload(flat: unknown[], answers: Map<number, unknown>): unknown {
  const at = (index: number): unknown => {
    if (index < 0) return undefined
    const value = flat[index]
    if (Array.isArray(value)) {
      if (value[0] === 'Reactive' || value[0] === 'ShallowReactive') return at(value[1] as number)
      if (value[0] === 'ApiAnswer') {
        const number = at(value[1] as number) as number
        if (!answers.has(number)) throw new Error(`the payload names API answer ${number}, which the page does not carry`)
        return answers.get(number)
      }
      if (typeof value[0] === 'string') return [value[0], ...value.slice(1).map(i => (typeof i === 'number' ? at(i) : i))]
      return value.map(i => at(i as number))
    }
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, i]) => [key, at(i as number)]))
    return value
  }
  return at(0)
}
