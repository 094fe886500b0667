/**
 * Characters that show nothing by themselves: white space, default-ignorable
 * code points (zero-width spaces and joiners, the Hangul fillers U+115F,
 * U+1160, U+3164, U+FFA0, variation selectors, bidi controls), other control,
 * format, private-use and unassigned code points, non-spacing and enclosing
 * marks (nothing to sit on), and the blank Braille pattern U+2800.
 */
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{C}\p{Mn}\p{Me}\u2800]/u

/** Bidirectional formatting controls (embeddings, overrides, isolates, marks): they reorder text around them. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g

/** The one rule for user text that must show something: at least one visible character. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE.test(text)
}

/** The text without bidirectional formatting controls. */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '')
}
