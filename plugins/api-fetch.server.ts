import { getProxyRequestHeaders } from 'h3'
import { useNitroApp } from 'nitropack/runtime'
import { createFetchError, type FetchContext } from 'ofetch'
import { withQuery } from 'ufo'
import type { ApiOptions } from '~/composables/useApi'

/** What ofetch retries a GET once on (its defaults, which useRequestFetch had). */
const RETRIED = new Set([408, 409, 425, 429, 500, 502, 503, 504])
/** Statuses whose answer has no body. */
const NO_BODY = new Set([101, 204, 205, 304])

/**
 * The API reads of a server render, answered in this process by Nitro's
 * `localCall`: the handlers see the request `useRequestFetch()` sent (the
 * visitor's headers, the page's context), and the answer's text comes back as
 * written. `useRequestFetch()` wraps the same call in Web objects: a Request's
 * Headers and AbortSignal, a Response whose body is read back through a web
 * stream. On a signed-in home page of 48 uploads (`node --cpu-prof`) those were
 * about 5% of the render for its five reads. A failed read throws ofetch's
 * FetchError, as before; a write (never made during a render) goes the old way.
 */
export default defineNuxtPlugin({
  name: 'api-fetch',
  setup() {
    const event = useRequestEvent()!
    const { localCall } = useNitroApp()
    const requestFetch = useRequestFetch()

    async function apiFetch<T>(url: string, options: ApiOptions & { parseResponse: (text: string) => unknown }): Promise<T> {
      if ((options.method ?? 'GET') !== 'GET' || options.body !== undefined) return requestFetch(url, options as never) as Promise<T>
      const target = options.query ? withQuery(url, options.query) : url
      const headers = { ...getProxyRequestHeaders(event, { host: true }), ...options.headers }
      let answer = await localCall({ url: target, method: 'GET', headers, context: event.context })
      if (RETRIED.has(answer.status)) answer = await localCall({ url: target, method: 'GET', headers, context: event.context })
      const text = answer.body == null || NO_BODY.has(answer.status) ? undefined : String(typeof answer.body === 'string' ? answer.body : Buffer.from(answer.body as Uint8Array))
      const data = text === undefined ? undefined : options.parseResponse(text)
      if (answer.status >= 200 && answer.status < 300) return data as T
      const response = Object.assign(new Response(text ?? null, {
        status: answer.status,
        statusText: answer.statusText,
        headers: Object.entries(answer.headers).flatMap(([name, value]): [string, string][] => (Array.isArray(value) ? value.map(one => [name, one]) : value === undefined ? [] : [[name, String(value)]])),
      }), { _data: data })
      throw createFetchError({ request: target, options: { method: 'GET' }, response } as FetchContext)
    }

    return { provide: { apiFetch } }
  },
})
