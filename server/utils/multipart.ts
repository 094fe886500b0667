import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { H3Event } from 'h3'
import { getRequestHeader } from 'h3'
import busboy from 'busboy'
import { RECEIVED_HEAD_BYTES, type ReceivedBytes } from '../services/media'

/** Room for the text fields of an upload form beside its file. */
const FIELDS_ALLOWANCE = 64 * 1024
/** Most of a file part held in memory while the temporary file catches up (then the request is paused). */
const TEMP_WRITE_BUFFER = 1024 * 1024

export interface MultipartForm {
  fields: Record<string, string>
  /** The `file` part, streamed to a temporary file (deleted when the response ends). */
  file?: { path: string, filename: string, size: number, received: ReceivedBytes }
}

/**
 * Streams a multipart/form-data body: text fields into `fields`, the part named
 * `file` into a temporary file in `tmpDir`. A file over `maxFileBytes` is a 413
 * as soon as the cap is crossed (a Content-Length over the cap is refused before
 * anything is read); the rest of the body is never stored. Each field and the file
 * come once: a repeat is a 400 (the last value used to win silently, and a second
 * file was "Too many form fields") that names the field when it is one of the
 * form's own `fields`.
 */
export async function readMultipart(event: H3Event, options: { maxFileBytes: number, tmpDir: string, fields: readonly string[] }): Promise<MultipartForm> {
  const req = event.node.req
  const contentType = getRequestHeader(event, 'content-type') ?? ''
  if (!/^multipart\/form-data\s*;/i.test(contentType)) throw badRequest('Expected a multipart/form-data body')
  const tooLarge = () => {
    discardBody(event)
    return apiError(413, `File too large (max ${Math.round(options.maxFileBytes / 1024 / 1024)} MB)`)
  }
  if (Number(getRequestHeader(event, 'content-length')) > options.maxFileBytes + FIELDS_ALLOWANCE) throw tooLarge()

  const tempPath = join(options.tmpDir, `upload-${randomUUID()}`)
  // Only a form with a file made the temp file: a link's form has none, and rm() of a missing path costs an lstat.
  let opened = false
  const removeTemp = () => {
    if (opened) void rm(tempPath, { force: true })
  }
  event.node.res.once('close', removeTemp)

  return new Promise<MultipartForm>((resolve, reject) => {
    const form: MultipartForm = { fields: {} }
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: req.headers,
        // busboy reports 'limit' on reaching fileSize, so one byte more is the first refused size.
        // Two files: a second `file` part is refused by name rather than by the limit.
        limits: { fileSize: options.maxFileBytes + 1, files: 2, fields: 20, fieldSize: 16 * 1024, parts: 25, headerPairs: 50 },
      })
    }
    catch {
      return reject(badRequest('Invalid multipart body'))
    }
    let settled = false
    let fileDone: Promise<void> = Promise.resolve()
    let out: ReturnType<typeof createWriteStream> | undefined
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      req.unpipe(parser)
      discardBody(event)
      out?.destroy()
      removeTemp()
      reject(error)
    }
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || form.file) {
        stream.resume()
        return form.file && name === 'file' ? fail(badRequest(sentTwice(name))) : undefined
      }
      const file = { path: tempPath, filename: info.filename ?? '', size: 0, received: { sha256: '', head: Buffer.alloc(0) } }
      if (file.filename.includes('\0')) {
        stream.resume()
        return fail(badRequest(NUL_MESSAGE))
      }
      opened = true
      // A 1 MB buffer: the body keeps arriving while a write is under way, and what came meanwhile goes in one
      // writev (the default 16 KB held each 64 KB chunk until the write before it ended).
      out = createWriteStream(tempPath, { flags: 'wx', highWaterMark: TEMP_WRITE_BUFFER })
      const written = out
      // Hashed and sniffed on the way in, while the rest of the body is still arriving.
      const hash = createHash('sha256')
      const head: Buffer[] = []
      stream.on('data', (chunk: Buffer) => {
        if (file.size < RECEIVED_HEAD_BYTES) head.push(chunk.subarray(0, RECEIVED_HEAD_BYTES - file.size))
        file.size += chunk.length
        hash.update(chunk)
      })
      stream.on('end', () => {
        file.received = { sha256: hash.digest('hex'), head: Buffer.concat(head) }
      })
      stream.on('limit', () => fail(tooLarge()))
      fileDone = new Promise<void>((done, failed) => {
        written.on('close', done)
        written.on('error', failed)
      }).catch(fail)
      stream.pipe(written)
      form.file = file
    })
    parser.on('field', (name, value, info) => {
      // A part without a filename is a text field to busboy: `curl -F 'file=<img.png'` sends the
      // image so, which was then refused as text (a NUL in it, or too long), not as a missing file.
      if (name === 'file') return fail(badRequest('The file part needs a filename'))
      if (info.valueTruncated || info.nameTruncated) return fail(badRequest('A form field is too long'))
      if (Object.hasOwn(form.fields, name)) return fail(badRequest(sentTwice(options.fields.includes(name) ? name : undefined)))
      form.fields[name] = value
    })
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) parser.on(limit, () => fail(badRequest('Too many form fields')))
    parser.on('error', () => fail(badRequest('Invalid multipart body')))
    parser.on('close', () => {
      void fileDone.then(() => {
        if (settled) return
        settled = true
        resolve(form)
      })
    })
    req.on('error', fail)
    req.pipe(parser)
  })
}

/** The refusal of a field sent twice: named when it is one of the form's own, never with a name the client made up. */
function sentTwice(name: string | undefined): string {
  return name ? `${name} must be sent once` : 'A form field must be sent once'
}

/** Most bytes read and dropped after an early answer before the connection is cut. */
const DISCARD_LIMIT = 16 * 1024 * 1024

/**
 * After an early error the rest of the body is read and dropped (never parsed
 * or stored), so that clients which only read the answer once they have sent
 * everything still get it; a client that keeps sending far more is cut off.
 */
export function discardBody(event: H3Event): void {
  const req = event.node.req
  if (req.readableEnded) return
  let dropped = 0
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > DISCARD_LIMIT) req.socket.destroy()
  })
  req.resume()
}
