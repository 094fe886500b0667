/**
 * This or That's strength (docs/behaviour.md, This or That): Elo from 1500
 * with K = 24. Chosen over Bradley–Terry because one judgement moves only its
 * two images, by amounts read from those two rows alone, so a judgement is a
 * write of two locked rows; Bradley–Terry refits every strength from all the
 * judgements.
 */
export const ELO_START = 1500
export const ELO_K = 24

/** The chance, by Elo, that an image of strength `strength` beats one of `other`. */
export function eloExpected(strength: number, other: number): number {
  return 1 / (1 + 10 ** ((other - strength) / 400))
}

/** The strengths of the winner and the loser after one judgement: what one gains, the other loses. */
export function eloAfter(winner: number, loser: number): [winner: number, loser: number] {
  const change = ELO_K * (1 - eloExpected(winner, loser))
  return [winner + change, loser - change]
}
