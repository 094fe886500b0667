import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import { createEvent, type H3Event } from 'h3'
import { describe, expect, it } from 'vitest'
import { dataVersionOf, isInProcessRequest, markServing, sharedByPageView } from '../../server/utils/in-process'

/** A request as Node builds it; `parent` is what Nitro's localFetch passes along for a request made in-process. */
function request(parent?: H3Event): H3Event {
  const req = new IncomingMessage(new Socket())
  if (parent) Object.assign(req, { __unenv__: parent.context })
  return createEvent(req, new ServerResponse(req))
}

function counter(answer = 'answer') {
  const calls = { count: 0 }
  const compute = async () => {
    calls.count++
    return `${answer} ${calls.count}`
  }
  return { calls, compute }
}

describe('sharedByPageView', () => {
  it('computes once for the in-process requests of one page view, per key', async () => {
    const page = request()
    markServing(page)
    const [first, second] = [request(page), request(page)]
    expect(isInProcessRequest(first)).toBe(true)
    const { calls, compute } = counter()
    const answers = await Promise.all([sharedByPageView(first, 'actor a', compute), sharedByPageView(second, 'actor a', compute)])
    expect(answers).toEqual(['answer 1', 'answer 1'])
    expect(await sharedByPageView(second, 'actor b', compute)).toBe('answer 2')
    expect(calls.count).toBe(2)
  })

  it('shares nothing between page views, nor for a request a client sent', async () => {
    const [page, otherPage] = [request(), request()]
    markServing(page)
    markServing(otherPage)
    const { calls, compute } = counter()
    expect(await sharedByPageView(request(page), 'actor a', compute)).toBe('answer 1')
    expect(await sharedByPageView(request(otherPage), 'actor a', compute)).toBe('answer 2')
    // A context that was never marked as being served (what a client's own request has).
    const unmarked = request()
    expect(await sharedByPageView(request(unmarked), 'actor a', compute)).toBe('answer 3')
    expect(await sharedByPageView(page, 'actor a', compute)).toBe('answer 4')
    expect(calls.count).toBe(4)
  })

  it('does not keep a failure: the next call computes again', async () => {
    const page = request()
    markServing(page)
    let attempts = 0
    const flaky = async () => {
      attempts++
      if (attempts === 1) throw new Error('database not reachable')
      return 'found'
    }
    await expect(sharedByPageView(request(page), 'actor a', flaky)).rejects.toThrow('database not reachable')
    expect(await sharedByPageView(request(page), 'actor a', flaky)).toBe('found')
    expect(await sharedByPageView(request(page), 'actor a', flaky)).toBe('found')
    expect(attempts).toBe(2)
  })
})

describe('dataVersionOf', () => {
  /** A database whose version moves with each read, so a test can tell reads apart. */
  function versions() {
    const db = { reads: 0, dataVersion: async () => `v${++db.reads}` }
    return db
  }

  it('reads once for a page and every call it makes in-process, once for any other request', async () => {
    const db = versions()
    const page = request()
    markServing(page)
    const calls = [request(page), request(page), request(page)]
    expect(await Promise.all(calls.map(call => dataVersionOf(call, db)))).toEqual(['v1', 'v1', 'v1'])
    expect(await dataVersionOf(page, db)).toBe('v1')
    const [client, otherPage] = [request(), request()]
    markServing(otherPage)
    expect(await dataVersionOf(client, db)).toBe('v2')
    expect(await dataVersionOf(client, db)).toBe('v2')
    expect(await dataVersionOf(request(otherPage), db)).toBe('v3')
    // A context never marked as being served (a client's own request) shares nothing with what it names.
    expect(await dataVersionOf(request(client), db)).toBe('v4')
    expect(db.reads).toBe(4)
  })

  it('does not keep a failure: the next call reads again', async () => {
    let reads = 0
    const db = { dataVersion: async () => {
      if (++reads === 1) throw new Error('database not reachable')
      return 'v2'
    } }
    const page = request()
    markServing(page)
    await expect(dataVersionOf(request(page), db)).rejects.toThrow('database not reachable')
    expect(await dataVersionOf(request(page), db)).toBe('v2')
    expect(await dataVersionOf(request(page), db)).toBe('v2')
    expect(reads).toBe(2)
  })
})
