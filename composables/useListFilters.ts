const BLIND_KEY = 'dif:blind-voting'
const VOTED_KEY = 'dif:voted'

/**
 * The caller's hidden tags (GET/PUT /api/profile/filters), shared by every
 * component of the page, and the blind-voting setting of this browser.
 */
export function useListFilters() {
  const api = useApi()
  const hiddenTags = useState<string[] | null>('filters:hidden-tags', () => null)

  async function load(): Promise<string[]> {
    const { hiddenTags: tags } = await api<{ hiddenTags: string[] }>('/api/profile/filters')
    hiddenTags.value = tags
    return tags
  }

  async function save(tags: string[]): Promise<string[]> {
    const { hiddenTags: saved } = await api<{ hiddenTags: string[] }>('/api/profile/filters', { method: 'PUT', body: { hiddenTags: tags } })
    hiddenTags.value = saved
    // Every list on the page now leaves these tags out.
    await refreshNuxtData()
    return saved
  }

  async function hide(slug: string) {
    const current = hiddenTags.value ?? await load()
    if (!current.includes(slug)) await save([...current, slug])
  }

  const unhide = async (slug: string) => save((hiddenTags.value ?? await load()).filter(tag => tag !== slug))

  return { hiddenTags, load, save, hide, unhide }
}

/**
 * Blind voting (kept in this browser): a card hides its counts and rating
 * until the viewer has voted on it here.
 */
export function useBlindVoting() {
  const enabled = useState<boolean>('blind-voting', () => false)
  const voted = useState<string[]>('blind-voting:voted', () => [])
  const ready = useState<boolean>('blind-voting:ready', () => false)

  // Read after hydration, so the server's HTML (counts shown) and the first client render agree.
  if (import.meta.client && getCurrentInstance()) {
    onMounted(() => {
      if (ready.value) return
      ready.value = true
      try {
        enabled.value = localStorage.getItem(BLIND_KEY) === 'on'
        voted.value = JSON.parse(localStorage.getItem(VOTED_KEY) ?? '[]') as string[]
      }
      catch { /* storage unavailable: off */ }
    })
  }

  function setEnabled(on: boolean) {
    enabled.value = on
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
  const hides = (uploadId: string) => enabled.value && !voted.value.includes(uploadId) && anonymousVoteOf(uploadId) === null

  return { enabled, setEnabled, markVoted, hides }
}
