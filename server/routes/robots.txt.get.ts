import { setResponseHeaders } from 'h3'
import { robotsTxt } from '../services/sitemap'

/** GET /robots.txt */
export default defineEventHandler((event) => {
  setResponseHeaders(event, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' })
  return robotsTxt(siteOrigin())
})
