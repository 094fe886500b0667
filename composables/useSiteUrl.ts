/** The site's own address (NUXT_PUBLIC_SITE_URL) without a trailing slash, for absolute links in the head. */
export function useSiteUrl(): string {
  return useRuntimeConfig().public.siteUrl.replace(/\/$/, '')
}
