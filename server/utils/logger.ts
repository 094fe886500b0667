import pino from 'pino'

/**
 * The server's log (docs/operations.md, Logs): one JSON object per line on
 * stdout through pino, or with `NUXT_LOG_FORMAT=pretty` one line for people.
 * Lines are written asynchronously (one write while another is under way
 * collects the next lines), and flushed at shutdown (`flushLog`).
 *
 * What a line may carry is decided where it is written: the route template,
 * never a path with its query, never a header, cookie, token or password.
 */
export function useLogger(): pino.Logger {
  logger ??= createLogger(logFormat() === 'pretty')
  return logger
}

const LOG_FORMATS = ['json', 'pretty']

/** `NUXT_LOG_FORMAT` as given (empty is the default, json), checked at start: a misspelt one is refused, not read as json. */
export function checkLogFormat(): void {
  const format = logFormat()
  if (format && !LOG_FORMATS.includes(format)) throw new Error(`NUXT_LOG_FORMAT must be json or pretty, not "${String(useRuntimeConfig().logFormat)}"`)
}

const logFormat = () => String(useRuntimeConfig().logFormat || '').trim().toLowerCase()

/** Writes what is still buffered (at shutdown). */
export function flushLog(): void {
  destination?.flushSync()
}

let logger: pino.Logger | undefined
let destination: pino.DestinationStream & { flushSync: () => void } | undefined

function createLogger(pretty: boolean): pino.Logger {
  const options: pino.LoggerOptions = {
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: label => ({ level: label }) },
  }
  if (pretty) return pino(options, { write: (line: string) => process.stdout.write(prettyLine(line)) })
  destination = pino.destination({ dest: 1, sync: false })
  return pino(options, destination)
}

/**
 * `17:12:10.123 GET /api/upload/[id] 200 3.1 ms 127.0.0.1 req 8f1c…`, or the
 * time, level and message of any other line, with its other fields after.
 */
export function prettyLine(json: string): string {
  const { time, level, msg, requestId, method, route, status, durationMs, clientIp, cut, ...rest } = JSON.parse(json) as Record<string, unknown>
  const clock = typeof time === 'string' ? time.slice(11, 23) : ''
  if (msg === 'request') return `${clock} ${method} ${route} ${status} ${durationMs} ms ${clientIp} req ${requestId}${cut ? ` cut at ${cut}` : ''}\n`
  const extra = { ...(requestId ? { requestId } : {}), ...rest }
  const tail = Object.keys(extra).length ? ` ${JSON.stringify(extra)}` : ''
  return `${clock} ${String(level).toUpperCase()} ${msg}${tail}\n`
}
