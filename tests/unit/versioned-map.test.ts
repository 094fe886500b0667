import { describe, expect, it } from 'vitest'
import { VersionedMap } from '../../server/services/versioned-map'

describe('VersionedMap', () => {
  it('keeps entries while the version stays, and drops them all when another is seen', () => {
    const map = new VersionedMap<string>(10)
    expect(map.get('v1', 'a')).toBeUndefined()
    expect(map.set('v1', 'a', 'A')).toBe(true)
    expect(map.set('v1', 'b', 'B')).toBe(true)
    expect(map.get('v1', 'a')).toBe('A')
    expect(map.get('v2', 'a')).toBeUndefined()
    // Back at v1 nothing of v1 is left either: the entries only ever belong to the version last seen.
    expect(map.get('v1', 'b')).toBeUndefined()
  })

  it('does not keep an entry made at a version that is no longer the current one', () => {
    const map = new VersionedMap<string>(10)
    map.get('v1', 'a')
    // A request read v1, another then saw v2; the first one's answer must not be kept.
    map.get('v2', 'a')
    expect(map.set('v1', 'a', 'stale')).toBe(false)
    expect(map.get('v2', 'a')).toBeUndefined()
    expect(map.set('v2', 'a', 'fresh')).toBe(true)
    expect(map.get('v2', 'a')).toBe('fresh')
  })

  it('drops the oldest entry past its size, counting a replaced entry as new', () => {
    const map = new VersionedMap<number>(2)
    map.get('v', 'a')
    map.set('v', 'a', 1)
    map.set('v', 'b', 2)
    map.set('v', 'a', 3)
    map.set('v', 'c', 4)
    expect(map.get('v', 'b')).toBeUndefined()
    expect(map.get('v', 'a')).toBe(3)
    expect(map.get('v', 'c')).toBe(4)
  })

  it('deletes an entry only at the current version and only if it is the one named', () => {
    const map = new VersionedMap<string>(10)
    map.get('v1', 'a')
    map.set('v1', 'a', 'first')
    map.delete('v1', 'a', 'other')
    expect(map.get('v1', 'a')).toBe('first')
    map.delete('v0', 'a', 'first')
    expect(map.get('v1', 'a')).toBe('first')
    map.delete('v1', 'a', 'first')
    expect(map.get('v1', 'a')).toBeUndefined()
  })

  it('forgets everything on clear, so the next entry needs a version read again', () => {
    const map = new VersionedMap<string>(10)
    map.get('v1', 'a')
    map.set('v1', 'a', 'A')
    map.clear()
    expect(map.set('v1', 'a', 'A')).toBe(false)
    expect(map.get('v1', 'a')).toBeUndefined()
  })
})
