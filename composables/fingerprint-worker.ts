import { drawFingerprintCanvas, FINGERPRINT_CANVAS, type FingerprintWorkerAnswer } from './fingerprint-canvas'

/**
 * A worker that answers with two of the anonymous voter's fingerprint signals
 * (composables/useVote.ts), off the page's main thread: the browser's time zone
 * (its IANA name; the first Intl.DateTimeFormat a thread makes loads the
 * locale's data) and the canvas drawing as a PNG data URL, the same text as the
 * page's `canvas.toDataURL()` (null where a worker has no OffscreenCanvas: the
 * page draws it then).
 */
async function canvasSignal(): Promise<string | null> {
  if (typeof OffscreenCanvas === 'undefined') return null
  try {
    const canvas = new OffscreenCanvas(FINGERPRINT_CANVAS.width, FINGERPRINT_CANVAS.height)
    const context = canvas.getContext('2d')
    if (!context) return null
    drawFingerprintCanvas(context)
    const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer())
    let binary = ''
    for (const byte of bytes) binary += String.fromCharCode(byte)
    return `data:image/png;base64,${btoa(binary)}`
  }
  catch {
    return null
  }
}

const post = (globalThis as unknown as { postMessage: (message: FingerprintWorkerAnswer) => void }).postMessage
void canvasSignal().then(canvas => post({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, canvas }))
