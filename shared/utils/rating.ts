export interface UploadStats {
  voteCount: number
  upvotes: number
  downvotes: number
  averageRating: number | null
}

const round2 = (value: number) => Math.round(value * 100) / 100

/** The stats object of an upload: upvotes weigh 10, downvotes 1; null rating with no votes. */
export function uploadStats(upvotes: number, downvotes: number): UploadStats {
  const voteCount = upvotes + downvotes
  return {
    voteCount,
    upvotes,
    downvotes,
    averageRating: voteCount === 0 ? null : round2((10 * upvotes + 1 * downvotes) / voteCount),
  }
}
