import { describe, expect, it } from 'vitest'
import { keepTickObject } from '../../server/utils/tick-object'

describe('keepTickObject', () => {
  it('holds one of Node\'s own nextTick objects, the same one on every call', () => {
    const kept = keepTickObject()
    // A tick object: the callback and its arguments, and two symbol-keyed async ids.
    expect(kept).toMatchObject({ callback: expect.any(Function), args: undefined })
    expect(Object.getOwnPropertySymbols(kept).length).toBe(2)
    expect(keepTickObject()).toBe(kept)
  })
})
