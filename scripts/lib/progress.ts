/**
 * Progress of long work on stderr: a percentage rewritten in place on a
 * terminal, else (a log, a pipe) one line every `every` items and one at the end.
 */
export interface Progress {
  /** `done` more items are finished. */
  add: (done?: number) => void
  /** Sets how far it is and of how much (an online copy that starts over goes back). */
  set: (done: number, total: number) => void
  /** Prints the final line. */
  end: () => void
}

export function progress(label: string, total: number, options: { every?: number, unit?: string, stream?: NodeJS.WriteStream } = {}): Progress {
  const stream = options.stream ?? process.stderr
  // About a hundred lines at most for a long list, never more than one per 100 items.
  const every = options.every ?? Math.max(100, Math.ceil(total / 100))
  const unit = options.unit ?? 'files'
  let done = 0
  let lastLine = 0
  let lastDraw = 0
  const line = () => `${label}: ${Math.round(done)}${total > 0 ? `/${Math.round(total)}` : ''} ${unit}${total > 0 ? ` (${Math.min(100, Math.floor(done * 100 / total))}%)` : ''}`
  const draw = (final: boolean) => {
    if (stream.isTTY) {
      const now = Date.now()
      if (!final && now - lastDraw < 100) return
      lastDraw = now
      stream.write(`\r${line()}${final ? '\n' : ''}`)
    }
    else if ((final && done !== lastLine) || done - lastLine >= every) {
      lastLine = done
      stream.write(`${line()}\n`)
    }
  }
  return {
    add(count = 1) {
      done += count
      draw(false)
    },
    set(value, of) {
      done = value
      total = of
      draw(false)
    },
    end() {
      draw(true)
    },
  }
}

/** Runs `work` on every item, `width` at a time; the first failure stops the rest. */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  let failed = false
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, async () => {
    while (!failed && next < items.length) {
      try {
        await work(items[next++]!)
      }
      catch (error) {
        failed = true
        throw error
      }
    }
  }))
}
