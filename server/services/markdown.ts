import MarkdownIt from 'markdown-it'
import sanitizeHtml from 'sanitize-html'

/** What a comment link may point at (docs/behaviour.md, Community: comments). */
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i

/** The one rel every comment link carries: not endorsed, user content, no window.opener. */
export const COMMENT_LINK_REL = 'nofollow ugc noopener'

/**
 * The renderer of comment bodies: CommonMark without raw HTML, images or
 * tables, links kept only when they are http(s) or mailto (markdown-it's own
 * validateLink refuses javascript:, vbscript:, file: and most data: first;
 * this allow-list then refuses every other scheme and relative links, so a
 * link never leads anywhere but off the site or to a mail client). Autolinks
 * of bare URLs are on (linkify), so a pasted address is a link too.
 */
const renderer = new MarkdownIt('commonmark', { html: false, linkify: true, breaks: true })
  .enable('linkify')
  .disable(['image', 'html_block', 'html_inline', 'heading', 'lheading', 'hr'])

const defaultValidateLink = renderer.validateLink.bind(renderer)
renderer.validateLink = url => defaultValidateLink(url) && SAFE_LINK.test(url.trim())

const defaultLinkOpen = renderer.renderer.rules.link_open
  ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
renderer.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', COMMENT_LINK_REL)
  return defaultLinkOpen(tokens, idx, options, env, self)
}

/**
 * The second line: whatever the renderer produced goes through an allow-list
 * of the tags and attributes comments use, links of the same schemes only,
 * and every link's rel set again. Anything else is dropped with its markup
 * (its text stays, escaped).
 */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'em', 'strong', 'a', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'br'],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'escape',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: COMMENT_LINK_REL }) },
}

/** A comment body's HTML: rendered by markdown-it, then sanitised by sanitize-html. */
export function renderCommentHtml(body: string): string {
  return sanitizeHtml(renderer.render(body), SANITIZE).trim()
}
