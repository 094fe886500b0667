import { describe, expect, it } from 'vitest'
import { useAction } from '../../composables/useAction'

/** A promise and the functions that settle it, so a test decides when a call ends. */
function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

/** An API failure as $fetch throws it: the status and the error body. */
const apiFailure = (statusCode: number, message: string) =>
  Object.assign(new Error(message), { statusCode, data: { statusCode, statusMessage: 'Bad Request', message } })

describe('useAction', () => {
  it('is busy from the call until it ends, and says what it did', async () => {
    const { busy, running, error, done, run } = useAction()
    const call = deferred<{ name: string }>()
    const result = run(() => call.promise, { key: 'row-1', done: created => `Added ${created.name}.` })
    expect(busy.value).toBe(true)
    await Promise.resolve()
    expect(running.value).toBe('row-1')
    call.resolve({ name: 'laptop' })
    await expect(result).resolves.toEqual({ name: 'laptop' })
    expect(busy.value).toBe(false)
    expect(running.value).toBe(null)
    expect(done.value).toBe('Added laptop.')
    expect(error.value).toBe(null)
  })

  it('shows a failure in the API\'s words, in plain words for MFA, and never throws', async () => {
    const { busy, error, done, run } = useAction()
    await expect(run(() => Promise.reject(apiFailure(400, 'Invalid MFA code')), { done: 'never' })).resolves.toBeUndefined()
    expect(error.value).toBe('Invalid two-step verification code')
    expect(done.value).toBe(null)
    expect(busy.value).toBe(false)
    await run(() => Promise.reject(new Error('offline')))
    expect(error.value).toBe('Could not reach the server. Check your connection.')
    // The next call starts clean.
    await run(async () => 'ok', { done: 'Saved.' })
    expect([error.value, done.value]).toEqual([null, 'Saved.'])
  })

  it('words a failure as asked, or leaves it to the caller with null', async () => {
    const { error, run } = useAction({ failure: failure => `No new link was sent: ${(failure as Error).message}` })
    await run(() => Promise.reject(new Error('boom')))
    expect(error.value).toBe('No new link was sent: boom')
    await run(() => Promise.reject(apiFailure(409, 'Email already registered')), { failure: () => null })
    expect(error.value).toBe(null)
  })

  it('runs one call at a time: a second waits for the first, then runs', async () => {
    const { busy, done, run } = useAction()
    const first = deferred<string>()
    const second = deferred<string>()
    const order: string[] = []
    const one = run(async () => {
      order.push('first starts')
      const value = await first.promise
      order.push('first ends')
      return value
    }, { done: value => value })
    const two = run(async () => {
      order.push('second starts')
      return second.promise
    }, { done: value => value })
    await new Promise(resolve => setTimeout(resolve, 0))
    expect(order).toEqual(['first starts'])
    first.resolve('first')
    await expect(one).resolves.toBe('first')
    await new Promise(resolve => setTimeout(resolve, 0))
    expect(busy.value).toBe(true)
    second.resolve('second')
    await expect(two).resolves.toBe('second')
    expect(order).toEqual(['first starts', 'first ends', 'second starts'])
    expect(busy.value).toBe(false)
    expect(done.value).toBe('second')
  })

  it('shows a check that failed before any request with fail()', () => {
    const { error, done, fail } = useAction()
    fail('Enter the 6-digit code from your authenticator app.')
    expect(error.value).toBe('Enter the 6-digit code from your authenticator app.')
    expect(done.value).toBe(null)
    fail(null)
    expect(error.value).toBe(null)
  })
})
