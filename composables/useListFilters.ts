import type * as v from 'valibot'
import type { ProfileFiltersResponseSchema } from '#shared/schemas/filters'
import type { MyVotesResponseSchema } from '#shared/schemas/votes'
import type { UploadListItem } from './useUploads'

const BLIND_KEY = 'dif:blind-voting'
const VOTED_KEY = 'dif:voted'

type ProfileFilters = v.InferOutput<typeof ProfileFiltersResponseSchema>

/**
 * The account's filters (GET/PUT /api/profile/filters): hidden tags and the
 * blind-voting setting, shared by every component of the page. Changes are
 * made one after another, each from the list the one before saved, so two
 * tags hidden at once are both kept; a load that began before a change never
 * puts back what the change replaced.
 */
export const useListFilters = perApp(() => {
  const api = useApi()
  const hiddenTags = useState<string[] | null>('filters:hidden-tags', () => null)
  const blindVoting = useState<boolean | null>('filters:blind-voting', () => null)
  /** Changes begun: a load's answer counts only if none began while it was on its way. */
  let changes = 0
  /** The last change, which the next one waits for. */
  let changing: Promise<unknown> = Promise.resolve()

  async function loadAll(): Promise<ProfileFilters> {
    const begun = changes
    const filters = await api<ProfileFilters>('/api/profile/filters')
    if (begun !== changes) return { hiddenTags: hiddenTags.value ?? filters.hiddenTags, blindVoting: blindVoting.value ?? filters.blindVoting }
    hiddenTags.value = filters.hiddenTags
    blindVoting.value = filters.blindVoting
    return filters
  }

  const load = async (): Promise<string[]> => (await loadAll()).hiddenTags

  /**
   * Saves the hidden tags `edit` makes of the current ones (and the
   * blind-voting setting when given), after the changes before it; nothing
   * is sent when neither changes.
   */
  function change(edit: (tags: string[]) => string[], blind?: boolean): Promise<string[]> {
    changes++
    const done = changing.then(async () => {
      const current = hiddenTags.value ?? await load()
      const tags = edit(current)
      if (tags === current && (blind === undefined || blind === blindVoting.value)) return current
      const saved = await api<ProfileFilters>('/api/profile/filters', { method: 'PUT', body: blind === undefined ? { hiddenTags: tags } : { hiddenTags: tags, blindVoting: blind } })
      hiddenTags.value = saved.hiddenTags
      blindVoting.value = saved.blindVoting
      // Every list on the page now leaves these tags out. Not awaited: refreshNuxtData first waits
      // for an idle moment of the browser, and what was saved is known now (a toast says so at once).
      if (blind === undefined) refreshNuxtData().catch(() => {})
      return saved.hiddenTags
    })
    changing = done.catch(() => {})
    return done
  }

  const hide = (slug: string) => change(tags => (tags.includes(slug) ? tags : [...tags, slug]))
  const unhide = (slug: string) => change(tags => (tags.includes(slug) ? tags.filter(tag => tag !== slug) : tags))
  /** Saves the blind-voting setting with the hidden tags as they are. */
  const setBlindVoting = (on: boolean) => change(tags => tags, on)

  return { hiddenTags, blindVoting, loadAll, load, hide, unhide, setBlindVoting }
})

/**
 * A tag chip's hide button (signed in, on others' uploads): hides the tag from
 * every list and says so in a toast with Undo; a failure's message goes under
 * the chips it was clicked in, by key (a card's upload id in a list, one key
 * for chips shown alone).
 */
export function useTagHiding() {
  const filters = useListFilters()
  const toast = useToast()
  const problems = ref<Record<string, string>>({})

  async function hide(key: string, tag: { name: string, slug: string }) {
    problems.value[key] = ''
    try {
      await filters.hide(tag.slug)
    }
    catch (error) {
      problems.value[key] = errorMessage(error, 'The tag could not be hidden.')
      return
    }
    toast.show(`Uploads tagged #${tag.name} are now hidden from your lists.`, {
      label: 'Undo',
      run: () => filters.unhide(tag.slug).then(
        () => toast.show(`Uploads tagged #${tag.name} are shown again.`),
        error => toast.show(errorMessage(error, 'The tag could not be shown again.')),
      ),
    })
  }

  return { problems, hide }
}

/** What a card's counts are in a server-rendered page while blind voting hides them. */
const HIDDEN_STATS: UploadListItem['stats'] = Object.freeze({ voteCount: 0, upvotes: 0, downvotes: 0, averageRating: null })

/** Upload ids whose cards were shown on this page, asked about once each (client only). */
const shownCards = new Set<string>()
let askSoon: ReturnType<typeof setTimeout> | undefined

/**
 * Blind voting: a card hides its counts and rating until the viewer has voted
 * on it. The setting is kept on the account when signed in (PUT
 * /api/profile/filters), in this browser otherwise. The uploads voted on are
 * those voted on in this browser and, for an account, those it voted on
 * anywhere: the cards shown are asked about in batches (GET /api/vote/mine).
 */
export function useBlindVoting() {
  const blind = sharedBlindVoting()
  // Read after hydration, so the server's HTML (counts shown) and the first client render agree.
  if (import.meta.client && getCurrentInstance()) onMounted(blind.load)
  return blind
}

const sharedBlindVoting = perApp(() => {
  const { signedIn } = useAuth()
  const filters = useListFilters()
  const api = useApi()
  const enabled = useState<boolean>('blind-voting', () => false)
  const voted = useState<string[]>('blind-voting:voted', () => [])
  const accountVoted = useState<Record<string, true>>('blind-voting:account-voted', () => ({}))
  const asked = useState<Record<string, true>>('blind-voting:asked', () => ({}))
  const ready = useState<boolean>('blind-voting:ready', () => false)
  // The state the page was served with, before load() (useAsServed).
  const served = { enabled: enabled.value, voted: [...voted.value], accountVoted: { ...accountVoted.value } }

  /** Reads the setting and the votes kept in this browser, once per page load (client only). */
  async function load() {
    if (ready.value) return
    ready.value = true
    try {
      enabled.value = localStorage.getItem(BLIND_KEY) === 'on'
      voted.value = JSON.parse(localStorage.getItem(VOTED_KEY) ?? '[]') as string[]
    }
    catch { /* storage unavailable: off */ }
    if (signedIn.value) {
      enabled.value = filters.blindVoting.value ?? await filters.loadAll().then(saved => saved.blindVoting, () => enabled.value)
    }
    if (enabled.value !== served.enabled) hydrateWaitingNow()
    askAboutShown()
  }

  /** Asks, in batches of 100, which shown cards the account has voted on (signed in, blind voting on). */
  function askAboutShown() {
    if (!import.meta.client || !enabled.value || !signedIn.value) return
    clearTimeout(askSoon)
    askSoon = setTimeout(async () => {
      const ids = [...shownCards].filter(id => !asked.value[id] && !voted.value.includes(id))
      for (let i = 0; i < ids.length; i += 100) {
        const batch = ids.slice(i, i + 100)
        for (const id of batch) asked.value[id] = true
        try {
          const { votes } = await api<v.InferOutput<typeof MyVotesResponseSchema>>('/api/vote/mine', { query: { uploadIds: batch.join(',') } })
          accountVoted.value = { ...accountVoted.value, ...Object.fromEntries(Object.keys(votes).map(id => [id, true as const])) }
        }
        catch {
          // Unknown for now: the cards stay hidden, and are asked about again when shown again.
          asked.value = Object.fromEntries(Object.entries(asked.value).filter(([id]) => !batch.includes(id)))
        }
      }
    }, 0)
  }

  /** A card is on the page: its counts show at once if the account has voted on it anywhere. */
  function shown(uploadId: string) {
    if (!import.meta.client) return
    shownCards.add(uploadId)
    askAboutShown()
  }

  async function setEnabled(on: boolean) {
    const before = enabled.value
    enabled.value = on
    if (signedIn.value) {
      try {
        await filters.setBlindVoting(on)
        // Counts a server render left out come back with the lists, in the background: a
        // refresh waits for the browser to be idle, and the answer should not.
        if (!on) void refreshNuxtData()
      }
      catch (error) {
        enabled.value = before
        throw error
      }
      askAboutShown()
      return
    }
    try {
      localStorage.setItem(BLIND_KEY, on ? 'on' : 'off')
    }
    catch { /* not kept */ }
  }

  /** Remembers that this browser voted on an upload (its counts may show now). */
  function markVoted(uploadId: string) {
    if (voted.value.includes(uploadId)) return
    voted.value = [...voted.value, uploadId].slice(-5000)
    try {
      localStorage.setItem(VOTED_KEY, JSON.stringify(voted.value))
    }
    catch { /* not kept */ }
  }

  /** Whether a card hides this upload's counts. */
  const hides = (uploadId: string) => enabled.value && !voted.value.includes(uploadId) && !accountVoted.value[uploadId] && anonymousVoteOf(uploadId) === null
  /** The setting and `hides` of the page as served (the server knows no vote kept in this browser). */
  const asServed = {
    enabled: served.enabled,
    hides: (uploadId: string) => served.enabled && !served.voted.includes(uploadId) && !served.accountVoted[uploadId],
  }

  /**
   * During a server render for a signed-in account with blind voting on: the
   * uploads with their counts left out where the account has not voted, so
   * the numbers are in neither the HTML nor the payload (a card hides them
   * before hydration as after). The setting and the votes asked about go to
   * the browser with the page, so its first render agrees. Anywhere else the
   * uploads as they are. A failed read of the votes hides: counts are shown
   * only once a vote is known.
   */
  async function withoutHiddenCounts<T extends { id: string, stats: UploadListItem['stats'] }>(uploads: readonly T[]): Promise<T[]> {
    if (!import.meta.server || !signedIn.value || uploads.length === 0) return uploads as T[]
    if (filters.blindVoting.value === null) await filters.loadAll().catch(() => undefined)
    enabled.value = filters.blindVoting.value === true
    if (!enabled.value) return uploads as T[]
    const ids = uploads.map(upload => upload.id).filter(id => !asked.value[id])
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100)
      try {
        const { votes } = await api<v.InferOutput<typeof MyVotesResponseSchema>>('/api/vote/mine', { query: { uploadIds: batch.join(',') } })
        accountVoted.value = { ...accountVoted.value, ...Object.fromEntries(Object.keys(votes).map(id => [id, true as const])) }
        for (const id of batch) asked.value[id] = true
      }
      catch { /* unknown: hidden */ }
    }
    // A list entry carries its counts twice: in `stats` and as the stored counters.
    return uploads.map(upload => accountVoted.value[upload.id] ? upload : { ...upload, upvotes: 0, downvote_count: 0, stats: HIDDEN_STATS })
  }

  return { enabled, setEnabled, markVoted, shown, hides, asServed, load, withoutHiddenCounts }
})
