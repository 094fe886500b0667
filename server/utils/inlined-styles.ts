/** How many sets of inline styles (one per kind of page, in practice) keep their answers. */
const KEPT_STYLE_SETS = 32

/** How long a file that could not be read is taken as unreadable before it is read again. */
const UNREAD_RETRY_MS = 5_000

/**
 * What marks a link to a file the page carries inline: `disabled`, and a
 * `type` that is no stylesheet language. A browser fetches no stylesheet of
 * a type it does not know, where some still fetched a disabled one (Chromium
 * 150 did; 156 does not), and the app's loader finds the link all the same:
 * it looks for one of the file's href with rel="stylesheet".
 */
const CARRIED = ' type="text/x-inlined" disabled'

/**
 * A page's head without its stylesheet links (server/plugins/inlined-styles.ts):
 * each is given back in `later`, to be linked after the page's markup. A link
 * whose every rule is in the head's inline styles comes back marked as carried
 * (CARRIED): the browser neither fetches nor applies it, and the app's loader of a page's code
 * finds it there and adds no link of its own for the same file (each added
 * stylesheet restyles the whole page once it loads). So does every other file
 * of `stylesheets` (the build's, by href) that the page carries whole. The first link
 * is the site's own stylesheet (Nuxt's entry): unless it is all inline too, the
 * head is given back as it was, so a page never paints without its styles.
 * `cssText` gives a linked file's text, read once (null when it cannot be
 * read: the link stays where it was, and a render UNREAD_RETRY_MS later reads
 * it again, so one failed read does not leave every page the process renders
 * with blocking links). A page's inline styles depend on the components it
 * drew, not on its data, so whether a file is all inline is kept per set of
 * inline styles: comparing the rules took 0.15 ms a render.
 */
export function stylesheetMover(cssText: (href: string) => Promise<string | null>, stylesheets: readonly string[] = []) {
  const kept = new Map<string, Map<string, boolean>>()
  const texts = new Map<string, Promise<string | null>>()
  const textOf = (href: string) => {
    let text = texts.get(href)
    if (!text) {
      // A read that throws counts as one that could not be read.
      texts.set(href, text = cssText(href).catch(() => null))
      void text.then((css) => {
        if (css === null) setTimeout(() => texts.delete(href), UNREAD_RETRY_MS).unref()
      })
    }
    return text
  }

  /** Whether the file is all in `inline`; null when it cannot be read. */
  async function wholeIn(inline: string, href: string): Promise<boolean | null> {
    let answers = kept.get(inline)
    if (!answers) {
      if (kept.size >= KEPT_STYLE_SETS) kept.delete(kept.keys().next().value!)
      answers = new Map()
      kept.set(inline, answers)
    }
    const known = answers.get(href)
    if (known !== undefined) return known
    const css = await textOf(href)
    if (css === null) return null
    const whole = allInline(css, inline)
    answers.set(href, whole)
    return whole
  }

  /** The files of `stylesheets` the page carries whole, worked out once per set of inline styles. */
  const wholeFiles = new Map<string, Promise<string[]>>()
  function carriedWhole(inline: string): Promise<string[]> {
    let files = wholeFiles.get(inline)
    if (!files) {
      if (wholeFiles.size >= KEPT_STYLE_SETS) wholeFiles.delete(wholeFiles.keys().next().value!)
      files = (async () => {
        const found: string[] = []
        let unread = false
        for (const href of stylesheets) {
          const whole = await wholeIn(inline, href)
          if (whole === true) found.push(href)
          unread ||= whole === null
        }
        // A file that could not be read is looked at again by a later render of this set.
        if (unread) wholeFiles.delete(inline)
        return found
      })()
      wholeFiles.set(inline, files)
    }
    return files
  }

  return async function withoutBlockingStylesheets(head: string[]): Promise<{ head: string[], later: string[] }> {
    const inline = head.join('').match(/<style[^>]*>[\s\S]*?<\/style>/g)?.join('') ?? ''
    const later: string[] = []
    const out: string[] = []
    const linked = new Set<string>()
    let first = true
    for (const chunk of head) {
      let rest = chunk
      for (const [tag, href] of chunk.matchAll(/<link rel="stylesheet" href="([^"]+\.css)"[^>]*>\n?/g)) {
        linked.add(href!)
        const whole = await wholeIn(inline, href!)
        if (first && whole !== true) return { head, later: [] }
        first = false
        if (whole === null) continue
        rest = rest.replace(tag, '')
        later.push(whole ? tag.trim().replace(/>$/, `${CARRIED}>`) : tag.trim())
      }
      out.push(rest)
    }
    // The files Nuxt does not link at all because the page carries them whole (its page's and layout's).
    for (const href of await carriedWhole(inline)) {
      if (!linked.has(href)) later.push(`<link rel="stylesheet" href="${href}" crossorigin${CARRIED}>`)
    }
    return { head: out, later }
  }
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
