/** The site's own origin (NUXT_PUBLIC_SITE_URL without a trailing slash), for absolute links. */
export function siteOrigin(): string {
  return String(useRuntimeConfig().public.siteUrl).replace(/\/+$/, '')
}
