export type ThemeChoice = 'system' | 'light' | 'dark'

/**
 * The colour theme: system preference unless pinned; kept in a cookie so SSR
 * renders it. The cookie is written only when a visitor picks a theme, so a
 * first visit gets no cookie and its page can come from the page cache
 * (server/services/page-cache.ts).
 */
export function useTheme() {
  const cookie = useCookie<ThemeChoice | undefined>('theme', { sameSite: 'lax', maxAge: 60 * 60 * 24 * 365 })
  const theme = useState<ThemeChoice>('theme', () => (cookie.value === 'light' || cookie.value === 'dark' ? cookie.value : 'system'))
  function set(choice: ThemeChoice) {
    theme.value = choice
    cookie.value = choice
  }
  return { theme, set }
}

/** Puts the chosen theme on <html> (app.vue and error.vue both call it: the error page renders without app.vue). */
export function useThemeAttribute() {
  const { theme } = useTheme()
  useHead({ htmlAttrs: { 'data-theme': computed(() => (theme.value === 'system' ? undefined : theme.value)) } })
}
