import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SqliteDatabase } from '../../server/database/sqlite'
import { sql } from '../../server/database/sql'
import { hammingDistance, PHASH_MAX_DISTANCE } from '../../server/services/media'
import { findSimilarUpload, phashBandCandidates } from '../../server/services/uploads'
import { random } from '../../scripts/lib/seed'
import { testDatabase } from '../support/database'

const rand = random(16)
const hex64 = () => Array.from({ length: 16 }, () => Math.floor(rand() * 16).toString(16)).join('')

/** `hash` with the given bit positions (0 = lowest) flipped. */
function flip(hash: string, bits: number[]): string {
  let value = BigInt(`0x${hash}`)
  for (const bit of bits) value ^= 1n << BigInt(bit)
  return value.toString(16).padStart(16, '0')
}

/** `count` distinct random bit positions. */
function randomBits(count: number): number[] {
  const bits = new Set<number>()
  while (bits.size < count) bits.add(Math.floor(rand() * 64))
  return [...bits]
}

describe('near-duplicate look-up on the indexed hash bands', () => {
  let db: SqliteDatabase
  const owner = randomUUID()
  const stranger = randomUUID()

  async function storeImage(phash: string, options: { userId?: string, isPrivate?: boolean } = {}): Promise<string> {
    const id = randomUUID()
    await db.run(sql`INSERT INTO uploads (id, user_id, filename, original_name, description, upload_type, phash, is_private)
      VALUES (${id}, ${options.userId ?? owner}, ${`${id}.png`}, 'a.png', 'a picture', 'image', ${phash}, ${options.isPrivate ? 1 : 0})`)
    return id
  }

  beforeAll(async () => {
    db = await testDatabase()
    for (const [id, name] of [[owner, 'owner'], [stranger, 'stranger']]) {
      await db.run(sql`INSERT INTO users (id, email, username) VALUES (${id}, ${`${name}@unit.test`}, ${name})`)
    }
  })
  afterAll(() => db.close())

  it('stores the four bands of a hash, computed by the database', async () => {
    const id = await storeImage('0123456789abcdef')
    expect(await db.get(sql`SELECT phash_band0, phash_band1, phash_band2, phash_band3 FROM uploads WHERE id = ${id}`))
      .toEqual({ phash_band0: '0123', phash_band1: '4567', phash_band2: '89ab', phash_band3: 'cdef' })
  })

  it('lists each band and its 16 one-bit neighbours', () => {
    const bands = phashBandCandidates('0000ffff8000a5a5')
    expect(bands.map(values => values.length)).toEqual([17, 17, 17, 17])
    expect(bands[0]!.slice(0, 3)).toEqual(['0000', '0001', '0002'])
    expect(bands[1]).toContain('7fff')
    expect(bands[2]).toContain('0000')
    for (const values of bands) expect(new Set(values).size).toBe(17)
  })

  it('finds a copy 6 bits away spread 2/2/1/1 over the bands, where no band is equal', async () => {
    const stored = hex64()
    const id = await storeImage(stored)
    // Bits 0,1 (band 3), 16,17 (band 2), 32 (band 1), 48 (band 0): every band differs.
    const copy = flip(stored, [0, 1, 16, 17, 32, 48])
    expect(hammingDistance(stored, copy)).toBe(6)
    for (let band = 0; band < 4; band++) expect(copy.slice(band * 4, band * 4 + 4)).not.toBe(stored.slice(band * 4, band * 4 + 4))
    expect(await findSimilarUpload(db, owner, copy)).toEqual({ id })
  })

  it('finds every copy within the threshold and none beyond it (300 random flips)', async () => {
    for (let i = 0; i < 300; i++) {
      const stored = hex64()
      const id = await storeImage(stored)
      const distance = i % 10
      const copy = flip(stored, randomBits(distance))
      const found = await findSimilarUpload(db, owner, copy)
      // Any other stored row that happens to be near counts too; it must be within the threshold.
      if (distance <= PHASH_MAX_DISTANCE) expect(found, `${distance} bits`).toBeDefined()
      if (found && found.id !== id) {
        const other = (await db.get<{ phash: string }>(sql`SELECT phash FROM uploads WHERE id = ${found.id}`))!
        expect(hammingDistance(other.phash, copy)).toBeLessThanOrEqual(PHASH_MAX_DISTANCE)
      }
      if (distance > PHASH_MAX_DISTANCE) expect(found?.id).not.toBe(id)
    }
  })

  it('sees public uploads and the caller\'s own, not another user\'s private ones', async () => {
    const stored = hex64()
    const id = await storeImage(stored, { userId: stranger, isPrivate: true })
    const copy = flip(stored, [3, 40])
    expect(await findSimilarUpload(db, owner, copy)).toBeUndefined()
    expect(await findSimilarUpload(db, stranger, copy)).toEqual({ id })
  })
})
