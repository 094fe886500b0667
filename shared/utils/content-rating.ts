/** An upload's content rating (docs/behaviour.md, Curation), mildest first. */
export const CONTENT_RATINGS = ['safe', 'suggestive', 'explicit'] as const
export type ContentRating = typeof CONTENT_RATINGS[number]

/** What a viewer's lists do with a rating: show it, blur it behind a "Show" control, or leave it out. */
export const RATING_CHOICES = ['show', 'blur', 'hide'] as const
export type RatingChoice = typeof RATING_CHOICES[number]

/** The ratings a viewer can choose for (safe is always shown). */
export interface RatingPreferences { explicit: RatingChoice, suggestive: RatingChoice }

/** Everyone's until they choose: explicit blurred, suggestive shown. */
export const DEFAULT_RATING_PREFERENCES: Readonly<RatingPreferences> = Object.freeze({ explicit: 'blur', suggestive: 'show' })

/** What the preferences do with an upload of `rating`. */
export function choiceFor(rating: ContentRating, preferences: RatingPreferences): RatingChoice {
  return rating === 'safe' ? 'show' : preferences[rating]
}

/**
 * The ratings a list may show: those asked for (`rating=`, all when none)
 * without those the preferences hide, in CONTENT_RATINGS order; null when
 * that is every rating (nothing to filter).
 */
export function ratingsShown(asked: readonly ContentRating[] | undefined, preferences: RatingPreferences): ContentRating[] | null {
  const shown = CONTENT_RATINGS.filter(rating => (!asked || asked.includes(rating)) && choiceFor(rating, preferences) !== 'hide')
  return shown.length === CONTENT_RATINGS.length ? null : shown
}
