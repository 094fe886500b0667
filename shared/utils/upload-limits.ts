/**
 * An upload's limits and its pictures' sizes. Apart from the schemas, so a page
 * that needs a number does not bring valibot and every upload schema into its
 * JavaScript (docs/performance.md, "First-load JavaScript").
 */
export const MAX_DESCRIPTION_LENGTH = 500
export const MAX_URL_LENGTH = 2048
/** Largest image file accepted, in bytes (10 MB). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024
/** Longest side of the small picture (`GET /api/image/{id}?size=small`): compact cards at 1×. */
export const SMALL_SIZE = 240
/** Longest side of a thumbnail (`GET /api/image/{id}?size=thumb`). */
export const THUMB_SIZE = 480
/** Longest side of the medium picture (`?size=medium`): a page column at 1×, a phone card at 2×. */
export const MEDIUM_SIZE = 960
/** Longest side of the display-size picture (`?size=display`); the original stays one click away. */
export const DISPLAY_SIZE = 1600

/**
 * The derivatives of a stored image, smallest first, by their `size` value and
 * longest side: each is at most 2× the one before, so the smallest that fills
 * a slot is never more than 2× that slot.
 */
export const IMAGE_SIZES = { small: SMALL_SIZE, thumb: THUMB_SIZE, medium: MEDIUM_SIZE, display: DISPLAY_SIZE } as const
export type ImageSize = keyof typeof IMAGE_SIZES
