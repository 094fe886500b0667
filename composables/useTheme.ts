export type ThemeChoice = 'system' | 'light' | 'dark'

const THEME_COOKIE = /(?:^|;\s*)theme=(light|dark)(?:;|$)/
const YEAR_SECONDS = 60 * 60 * 24 * 365

/**
 * The colour theme: system preference unless pinned; kept in a cookie so SSR
 * renders it. The cookie is written only when a visitor picks a theme, so a
 * first visit gets no cookie and its page can come from the page cache
 * (server/services/page-cache.ts). Read and written by hand rather than with
 * useCookie, whose cookie parser and serialiser every first visit would load
 * (docs/performance.md, "First-load JavaScript").
 */
export function useTheme() {
  const theme = useState<ThemeChoice>('theme', () => {
    const cookies = import.meta.server ? useRequestHeaders(['cookie']).cookie ?? '' : document.cookie
    return (THEME_COOKIE.exec(cookies)?.[1] as ThemeChoice | undefined) ?? 'system'
  })
  function set(choice: ThemeChoice) {
    theme.value = choice
    document.cookie = `theme=${choice}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax`
  }
  return { theme, set }
}

/** Puts the chosen theme on <html> (app.vue and error.vue both call it: the error page renders without app.vue). */
export function useThemeAttribute() {
  const { theme } = useTheme()
  useHead({ htmlAttrs: { 'data-theme': computed(() => (theme.value === 'system' ? undefined : theme.value)) } })
}
