import type { Executor } from '../database/port'
import { sql } from '../database/sql'

/** Upload pages per sitemap file (the protocol allows 50,000). */
export const SITEMAP_PAGE_SIZE = 10_000

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, c => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '\'': '&apos;', '"': '&quot;' })[c]!)

/** /sitemap.xml: a sitemap index naming one file per page of public uploads (at least one). */
export async function sitemapIndex(db: Executor, siteUrl: string): Promise<string> {
  const { total } = (await db.get<{ total: number }>(sql`SELECT count(*) AS total FROM uploads WHERE is_private = 0`))!
  const pages = Math.max(1, Math.ceil(total / SITEMAP_PAGE_SIZE))
  const entries = Array.from({ length: pages }, (_, i) => `  <sitemap><loc>${escapeXml(`${siteUrl}/sitemaps/uploads-${i + 1}.xml`)}</loc></sitemap>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</sitemapindex>\n`
}

/** /sitemaps/uploads-<page>.xml: the public uploads' pages, oldest first (so a page's content stays put); null past the end. */
export async function sitemapPage(db: Executor, siteUrl: string, page: number): Promise<string | null> {
  const rows = await db.all<{ id: string, created_at: string, edited_at: string | null }>(sql`SELECT id, created_at, edited_at FROM uploads WHERE is_private = 0
    ORDER BY created_at, id LIMIT ${SITEMAP_PAGE_SIZE} OFFSET ${(page - 1) * SITEMAP_PAGE_SIZE}`)
  if (rows.length === 0 && page > 1) return null
  const urls = page === 1 ? [`  <url><loc>${escapeXml(`${siteUrl}/`)}</loc></url>`] : []
  // The last change of the page: its last edit, else its creation (as the feeds date an entry).
  for (const row of rows) urls.push(`  <url><loc>${escapeXml(`${siteUrl}/upload/${row.id}`)}</loc><lastmod>${(row.edited_at ?? row.created_at).slice(0, 10)}</lastmod></url>`)
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}

/**
 * /robots.txt: pages open to crawlers, the API and account pages not, and
 * where the sitemap is. The pictures stay open: link previews (og:image) and
 * image search fetch them from /api/image/. The Allow comes first, for
 * parsers that take the first rule that matches rather than the longest.
 */
export function robotsTxt(siteUrl: string): string {
  return ['User-agent: *', 'Allow: /api/image/', 'Disallow: /api/', 'Disallow: /settings', 'Disallow: /admin', 'Disallow: /auth/', '', `Sitemap: ${siteUrl}/sitemap.xml`, ''].join('\n')
}
