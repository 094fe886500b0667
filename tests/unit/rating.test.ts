import { describe, expect, it } from 'vitest'
import { uploadStats } from '../../shared/utils/rating'

describe('uploadStats', () => {
  it('is null with no votes', () => {
    expect(uploadStats(0, 0)).toEqual({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })
  })

  it('weights upvotes 10 and downvotes 1, rounded to 2 decimals', () => {
    expect(uploadStats(1, 0).averageRating).toBe(10)
    expect(uploadStats(0, 1).averageRating).toBe(1)
    expect(uploadStats(1, 1).averageRating).toBe(5.5)
    expect(uploadStats(1, 2).averageRating).toBe(4)
    expect(uploadStats(2, 1).averageRating).toBe(7)
    expect(uploadStats(8, 20).averageRating).toBe(3.57)
    expect(uploadStats(1, 5)).toEqual({ voteCount: 6, upvotes: 1, downvotes: 5, averageRating: 2.5 })
  })
})
