/**
 * A page's head without its stylesheet links (server/plugins/inlined-styles.ts):
 * a link whose every rule is in the head's inline styles goes, and any other is
 * given back in `later`, to be linked after the page's markup. The first link
 * is the site's own stylesheet (Nuxt's entry): unless it is all inline too, the
 * head is given back as it was, so a page never paints without its styles.
 * `cssText` gives a linked file's text (null when it cannot be read: the link
 * stays where it was).
 */
export async function withoutBlockingStylesheets(head: string[], cssText: (href: string) => Promise<string | null>): Promise<{ head: string[], later: string[] }> {
  const inline = head.join('').match(/<style[^>]*>[\s\S]*?<\/style>/g)?.join('') ?? ''
  const later: string[] = []
  const out: string[] = []
  let first = true
  for (const chunk of head) {
    let kept = chunk
    for (const [tag, href] of chunk.matchAll(/<link rel="stylesheet" href="([^"]+\.css)"[^>]*>\n?/g)) {
      const css = await cssText(href!)
      const whole = css !== null && allInline(css, inline)
      if (first && !whole) return { head, later: [] }
      first = false
      if (css === null) continue
      kept = kept.replace(tag, '')
      if (!whole) later.push(tag.trim())
    }
    out.push(kept)
  }
  return { head: out, later }
}

/** Whether every rule of a stylesheet (each piece up to a closing brace) is in `inline`. */
function allInline(css: string, inline: string): boolean {
  let start = 0
  for (let end = css.indexOf('}'); end !== -1; end = css.indexOf('}', start)) {
    const piece = css.slice(start, end + 1).trim()
    if (piece !== '' && !inline.includes(piece)) return false
    start = end + 1
  }
  return css.slice(start).trim() === ''
}
