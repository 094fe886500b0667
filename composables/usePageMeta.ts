type MetaValue = string | undefined

/** Each value plain or a getter, read again whenever what it reads changes; undefined leaves its tag out. */
export type PageMeta = Partial<Record<'title' | keyof typeof META_TAGS, MetaValue | (() => MetaValue)>>

/** The meta tags a page may set, by the attribute that names each. */
const META_TAGS = {
  description: ['name', 'description'],
  robots: ['name', 'robots'],
  twitterCard: ['name', 'twitter:card'],
  ogSiteName: ['property', 'og:site_name'],
  ogType: ['property', 'og:type'],
  ogTitle: ['property', 'og:title'],
  ogDescription: ['property', 'og:description'],
  ogUrl: ['property', 'og:url'],
  ogImage: ['property', 'og:image'],
  ogImageAlt: ['property', 'og:image:alt'],
} as const

/**
 * A page's title and meta tags, through useHead. Not useSeoMeta: its table of
 * every meta name there is would come with the entry chunk of every first visit
 * (docs/performance.md, "First-load JavaScript").
 */
export function usePageMeta(input: PageMeta) {
  const meta = () => Object.entries(META_TAGS).flatMap(([key, [attribute, name]]) => {
    const content = toValue(input[key as keyof typeof META_TAGS])
    return content === undefined ? [] : [{ [attribute]: name, content }]
  })
  useHead(input.title === undefined ? { meta } : { title: input.title, meta })
}
