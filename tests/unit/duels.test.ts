import { describe, expect, it } from 'vitest'
import { duelKey, openDuel, pickOpponent, signDuel } from '../../server/services/duels'
import { eloAfter, eloExpected } from '../../shared/utils/elo'

describe('Elo (K = 24)', () => {
  it('moves equal strengths by 12 and keeps the sum', () => {
    expect(eloAfter(1500, 1500)).toEqual([1512, 1488])
    const [winner, loser] = eloAfter(1600, 1400)
    expect(winner + loser).toBeCloseTo(3000, 10)
    expect(winner - 1600).toBeCloseTo(24 * (1 - eloExpected(1600, 1400)), 10)
    expect(eloExpected(1600, 1400)).toBeCloseTo(0.7597, 4)
  })
})

describe('the opponent', () => {
  it('is one of the 8 nearest in strength', () => {
    const neighbours = [1000, 1490, 1495, 1500, 1502, 1505, 1510, 1520, 1530, 2000].map((s, i) => ({ id: String(i), strength: s }))
    const picked = new Set(Array.from({ length: 16 }, (_, i) => pickOpponent(1500, neighbours, () => i / 16)!.strength))
    expect([...picked].sort()).toEqual([1490, 1495, 1500, 1502, 1505, 1510, 1520, 1530])
    expect(pickOpponent(1500, [])).toBeNull()
  })
})

describe('duel ids', () => {
  const key = duelKey('s'.repeat(48))
  const judge = { userId: 'u1' }
  const claims = { id: 'd1', left: 'a', right: 'b', judge: 'u:u1', expires: 2_000 }

  it('open for their judge before they expire', () => {
    expect(openDuel(key, signDuel(key, claims), judge, 1_000)).toEqual(claims)
  })

  it('are refused when forged, expired, or for another caller', () => {
    const id = signDuel(key, claims)
    const refused = (duelId: string, who: Parameters<typeof openDuel>[2] = judge, now = 1_000) => () => openDuel(key, duelId, who, now)
    expect(refused(signDuel(duelKey('t'.repeat(48)), claims))).toThrow('Invalid duel')
    expect(refused(`${Buffer.from('["d1","b","a","u:u1",2000]').toString('base64url')}.${id.split('.')[1]}`)).toThrow('Invalid duel')
    expect(refused(id, judge, 2_000)).toThrow('Invalid duel')
    expect(refused(id, { userId: 'u2' })).toThrow('Invalid duel')
    expect(refused('junk')).toThrow('Invalid duel')
  })
})
