import { getRouterParam, setResponseHeaders } from 'h3'
import { sitemapPage } from '../../services/sitemap'

/** GET /sitemaps/uploads-<n>.xml: one page of public uploads. */
export default defineEventHandler(async (event) => {
  const match = /^uploads-([1-9]\d{0,6})\.xml$/.exec(getRouterParam(event, 'file') ?? '')
  const page = match ? await sitemapPage(useDB(), siteOrigin(), Number(match[1])) : null
  if (page === null) return feedErrorBody(event, 404, 'Sitemap not found')
  setResponseHeaders(event, { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' })
  return page
})
