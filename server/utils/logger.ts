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
  writeRequestLines()
  destination?.flushSync()
}

let logger: pino.Logger | undefined
let destination: pino.DestinationStream & { flushSync: () => void } | undefined
let pretty = false

function createLogger(forPeople: boolean): pino.Logger {
  pretty = forPeople
  const options: pino.LoggerOptions = {
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: label => ({ level: label }) },
  }
  if (pretty) return pino(options, { write: (line: string) => process.stdout.write(prettyLine(line)) })
  destination = pino.destination({ dest: 1, sync: false })
  return pino(options, destination)
}

/** What a request's line says (docs/operations.md, Logs). */
export interface RequestLine {
  requestId: string
  method: string
  route: string
  status: number
  durationMs: number
  clientIp: string
  cut?: 'shutdown'
}

/**
 * A request's line: the same JSON that `useLogger().info(line, 'request')`
 * writes, built here, and handed to the destination once per turn of the event
 * loop with the turn's other request lines. Every request writes one, so it
 * skips pino's serialisation, and the destination, which measures its whole
 * pending buffer on each write, gets one write a turn instead of one a request
 * (docs/performance.md, "What a cached read costs").
 */
export function logRequest(line: RequestLine): void {
  useLogger()
  const json = requestLineJson(line, isoNow())
  if (pretty) {
    process.stdout.write(prettyLine(json))
    return
  }
  pendingRequestLines += json
  if (!requestLinesScheduled) {
    requestLinesScheduled = true
    setImmediate(writeRequestLines)
  }
}

/** The JSON line of a request at `time` (ISO 8601), with its newline: key for key what pino writes. */
export function requestLineJson(line: RequestLine, time: string): string {
  return `{"level":"info","time":"${time}","requestId":${JSON.stringify(line.requestId)},"method":${JSON.stringify(line.method)},"route":${JSON.stringify(line.route)},"status":${line.status},"durationMs":${line.durationMs},"clientIp":${JSON.stringify(line.clientIp)}${line.cut ? `,"cut":${JSON.stringify(line.cut)}` : ''},"msg":"request"}\n`
}

let pendingRequestLines = ''
let requestLinesScheduled = false

function writeRequestLines(): void {
  requestLinesScheduled = false
  if (!pendingRequestLines) return
  const lines = pendingRequestLines
  pendingRequestLines = ''
  destination?.write(lines)
}

let isoMs = 0
let iso = ''

/** Now as pino's `isoTime` writes it, made once a millisecond. */
function isoNow(): string {
  const now = Date.now()
  if (now !== isoMs) {
    isoMs = now
    iso = new Date(now).toISOString()
  }
  return iso
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
