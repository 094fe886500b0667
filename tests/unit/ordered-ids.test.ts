import { describe, expect, it } from 'vitest'
import { orderedId } from '../../server/services/ordered-ids'

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('orderedId', () => {
  it('is a UUID version 7 that starts with the time in milliseconds', () => {
    const id = orderedId(Date.UTC(2030, 0, 1))
    expect(id).toMatch(UUID_V7)
    expect(Number.parseInt(id.replace('-', '').slice(0, 12), 16)).toBe(Date.UTC(2030, 0, 1))
  })

  it('sorts in the order made, within one millisecond, past the counter and with the clock set back', () => {
    const at = Date.UTC(2031, 0, 1)
    const ids = [
      ...Array.from({ length: 5000 }, () => orderedId(at)),
      orderedId(at - 60_000),
      orderedId(at + 1),
      orderedId(at + 10),
    ]
    for (const id of ids) expect(id).toMatch(UUID_V7)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })
})
