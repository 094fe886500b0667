import { setResponseHeaders } from 'h3'
import { sitemapIndex } from '../services/sitemap'

/** GET /sitemap.xml: the index of the paged upload sitemaps. */
export default defineEventHandler(async (event) => {
  setResponseHeaders(event, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' })
  return sitemapIndex(useDB(), siteOrigin())
})
