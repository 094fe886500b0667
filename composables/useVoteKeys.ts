import type { VoteValue } from './useVote'

export const VOTE_LABEL = { fucks: 'Fucks', does_not_fuck: 'Does not fuck' } as const

/** The two choices and their keys, in button order. */
export const VOTE_CHOICES = [
  { value: 'fucks', key: 'F' },
  { value: 'does_not_fuck', key: 'D' },
] as const satisfies readonly { value: VoteValue, key: string }[]

/**
 * The keyboard of both voting screens (the upload page and vote mode), so one
 * rule holds on both: F votes "Fucks", D "Does not fuck". A visitor without an
 * account cannot change or take back a vote, so for them the first press only
 * names the choice and the same key again casts it (Esc cancels); a click on a
 * button is deliberate and casts at once (docs/behaviour.md, "Voting flow").
 *
 * `other` gets every other key first (vote mode's U and S); it answers true
 * when it used the key.
 */
export function useVoteKeys(options: {
  /** Whether a first press only names the choice: a visitor's vote not cast yet. */
  confirms: () => boolean
  vote: (value: VoteValue) => void
  say: (message: string) => void
  /** Called before a vote key is handled (to focus its button, say). */
  onChoice?: (value: VoteValue) => void
  other?: (key: string, event: KeyboardEvent) => boolean
}) {
  /** The anonymous choice a first press picked, waiting for the same key again. */
  const pending = ref<VoteValue | null>(null)

  function onKey(event: KeyboardEvent) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return
    const target = event.target as HTMLElement | null
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return
    if (event.key === 'Escape' && pending.value) {
      pending.value = null
      options.say('No vote was cast.')
      return
    }
    const key = event.key.toUpperCase()
    if (options.other?.(key, event)) {
      event.preventDefault()
      return
    }
    const choice = VOTE_CHOICES.find(c => c.key === key)
    if (!choice) return
    event.preventDefault()
    options.onChoice?.(choice.value)
    if (options.confirms() && pending.value !== choice.value) {
      pending.value = choice.value
      options.say(`Press ${choice.key} again to vote “${VOTE_LABEL[choice.value]}”: an anonymous vote cannot be changed. Esc cancels.`)
      return
    }
    pending.value = null
    options.vote(choice.value)
  }

  onMounted(() => window.addEventListener('keydown', onKey))
  onBeforeUnmount(() => window.removeEventListener('keydown', onKey))

  function clear() {
    pending.value = null
  }

  return { pending, clear }
}
