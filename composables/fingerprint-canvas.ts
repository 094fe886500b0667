/** What the fingerprint's worker answers (composables/fingerprint-worker.ts): `canvas` null where the worker has no canvas to draw on. */
export interface FingerprintWorkerAnswer {
  timeZone: string
  canvas: string | null
}

/** The size of the anonymous voter's canvas signal. */
export const FINGERPRINT_CANVAS = { width: 200, height: 40 } as const

/**
 * The drawing of the anonymous voter's canvas signal (composables/useVote.ts), on
 * a page's canvas or a worker's: its PNG differs from browser to browser with the
 * fonts and the rasteriser, and is the same on both canvases of one browser.
 */
export function drawFingerprintCanvas(context: CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D): void {
  context.textBaseline = 'top'
  context.font = '16px sans-serif'
  context.fillStyle = '#6a2bd9'
  context.fillRect(0, 0, 100, 20)
  context.fillStyle = '#13773b'
  context.fillText('Does It Fuck? 🗳', 4, 12)
}
