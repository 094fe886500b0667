import type * as v from 'valibot'
import type { PreferencesResponseSchema } from '#shared/schemas/favourites'
import { choiceFor, DEFAULT_RATING_PREFERENCES, RATING_CHOICES, ratingsShown, type ContentRating, type RatingChoice, type RatingPreferences } from '#shared/utils/content-rating'
import { perApp } from './useApi'

const LOCAL_KEY = 'dif:rating-preferences'

type Preferences = v.InferOutput<typeof PreferencesResponseSchema>

/**
 * What this viewer's pages do with suggestive and explicit uploads (show,
 * blur behind a "Show" control, hide): an account's preferences (GET/PUT
 * /api/profile/preferences; its lists already leave hidden ratings out), a
 * visitor's kept in this browser (their lists answer as for everyone, so
 * hiding is done here). The server renders the defaults, so every visitor
 * gets the same HTML (the page cache serves it to all); the choice is read
 * after hydration, as blind voting is.
 */
export const useContentRatings = perApp(() => {
  const { signedIn } = useAuth()
  const api = useApi()
  const preferences = useState<RatingPreferences>('ratings:preferences', () => ({ ...DEFAULT_RATING_PREFERENCES }))
  const revealed = useState<Record<string, true>>('ratings:revealed', () => ({}))
  const ready = useState<boolean>('ratings:ready', () => false)
  // The choice the page was served with, before load() (useAsServed).
  const served = { preferences: { ...preferences.value }, revealed: { ...revealed.value } }

  let reading: Promise<void> | undefined
  /** Saves begun: the account's choice read before one of them would put back what it replaced. */
  let saves = 0

  /** Reads the choice once per page load (client only); a second call waits for the first's answer. */
  function load(): Promise<void> {
    if (ready.value) return reading ?? Promise.resolve()
    ready.value = true
    reading = read()
    return reading
  }

  async function read() {
    await readChoice()
    const now = preferences.value
    if (now.explicit !== served.preferences.explicit || now.suggestive !== served.preferences.suggestive) hydrateWaitingNow()
  }

  async function readChoice() {
    if (signedIn.value) {
      const begun = saves
      const saved = await api<Preferences>('/api/profile/preferences').catch(() => null)
      if (saved && begun === saves) preferences.value = { explicit: saved.explicit, suggestive: saved.suggestive }
      return
    }
    try {
      const kept = JSON.parse(localStorage.getItem(LOCAL_KEY) ?? 'null') as Partial<RatingPreferences> | null
      const valid = (choice: unknown): choice is RatingChoice => (RATING_CHOICES as readonly unknown[]).includes(choice)
      if (kept) preferences.value = { explicit: valid(kept.explicit) ? kept.explicit : 'blur', suggestive: valid(kept.suggestive) ? kept.suggestive : 'show' }
    }
    catch { /* storage unavailable: the defaults */ }
  }

  /** Saves the choice: the account's, or this browser's for a visitor. */
  async function save(choice: RatingPreferences) {
    saves++
    if (signedIn.value) {
      const saved = await api<Preferences>('/api/profile/preferences', { method: 'PUT', body: { ...choice } })
      preferences.value = { explicit: saved.explicit, suggestive: saved.suggestive }
      // The account's lists leave out what it hides now.
      refreshNuxtData().catch(() => {})
      return
    }
    preferences.value = { ...choice }
    try {
      localStorage.setItem(LOCAL_KEY, JSON.stringify(choice))
    }
    catch { /* storage unavailable: for this page only */ }
  }

  const choice = (rating: ContentRating) => choiceFor(rating, preferences.value)
  /** Whether an upload's picture is shown blurred (until its "Show" is pressed). */
  const blurred = (upload: { id: string, rating: ContentRating }) => choice(upload.rating) === 'blur' && !revealed.value[upload.id]
  /** Whether an upload is left out of the page's lists. */
  const hidden = (upload: { rating: ContentRating }) => choice(upload.rating) === 'hide'
  /** `blurred` and `hidden` of the page as served. */
  const asServed = {
    blurred: (upload: { id: string, rating: ContentRating }) => choiceFor(upload.rating, served.preferences) === 'blur' && !served.revealed[upload.id],
    hidden: (upload: { rating: ContentRating }) => choiceFor(upload.rating, served.preferences) === 'hide',
  }
  /** The ratings a screen asks the server for (`rating=`): all but those hidden; null when nothing is hidden. */
  const shown = () => ratingsShown(undefined, preferences.value)
  const reveal = (id: string) => {
    revealed.value = { ...revealed.value, [id]: true }
  }
  return { preferences, load, save, blurred, hidden, asServed, shown, reveal }
})

/** useContentRatings, its choice read once the page is hydrated. */
export function useRatingView() {
  const ratings = useContentRatings()
  if (import.meta.client && getCurrentInstance()) onMounted(ratings.load)
  return ratings
}
