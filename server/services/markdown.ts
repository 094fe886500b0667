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

/** A comment body's HTML through the renderer and the sanitiser, every time. */
export function renderAndSanitise(body: string): string {
  return sanitizeHtml(renderer.render(body), SANITIZE).trim()
}

/**
 * A line no rule of the renderer acts on: it starts with a letter (no list,
 * quote, code block or heading), holds only letters, digits, spaces and plain
 * punctuation, a full stop only before a space or at its end (nothing that
 * could be autolinked), and does not end with a space.
 */
const PLAIN_LINE = /^\p{L}(?:[\p{L}\p{N} ,;!?'()-]|\.(?= |$))*(?<! )$/u

/**
 * The HTML of a body made only of plain lines, as the renderer and the
 * sanitiser would make it (paragraphs at blank lines, a break at every other
 * newline); undefined for any other body. Most comments are plain sentences,
 * and this skips two parsers for them (tests/unit/markdown.test.ts holds it
 * equal to the full path on random bodies).
 */
export function plainCommentHtml(body: string): string | undefined {
  const paragraphs = body.split(/\n{2,}/).map(paragraph => paragraph.split('\n'))
  if (!paragraphs.every(lines => lines.every(line => PLAIN_LINE.test(line)))) return undefined
  return paragraphs.map(lines => `<p>${lines.join('<br />\n')}</p>`).join('\n')
}

/** A comment body's HTML: rendered by markdown-it, then sanitised by sanitize-html (or the same, made directly, for plain text). */
export function renderCommentHtml(body: string): string {
  return plainCommentHtml(body) ?? renderAndSanitise(body)
}
