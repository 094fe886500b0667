/** The stats object of an upload (docs/behaviour.md, Votes and rating). */
export interface UploadStats {
  voteCount: number
  upvotes: number
  downvotes: number
  /** (10 × upvotes + 1 × downvotes) / (upvotes + downvotes), 2 decimals; null with no votes. */
  averageRating: number | null
}

/** The one place the rating formula lives (docs/behaviour.md, Votes and rating). */
export function uploadStats(upvotes: number, downvotes: number): UploadStats {
  const voteCount = upvotes + downvotes
  const averageRating = voteCount === 0 ? null : Math.round(((10 * upvotes + downvotes) / voteCount) * 100) / 100
  return { voteCount, upvotes, downvotes, averageRating }
}
