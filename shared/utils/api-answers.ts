/**
 * API answers read while a page renders on the server travel in the page as
 * data blocks of their own, one `<script type="application/json">` each after
 * the app's markup, which the payload names by number (plugins/api-answers.ts,
 * server/plugins/api-answers.ts).
 */
export const API_ANSWER_ATTRIBUTE = 'data-api-answer'

/**
 * The data blocks of a render's answers (JSON texts), numbered from 1. In
 * JSON a `<` can only stand inside a string, where `\u003c` means the same:
 * escaping it is all a data block needs, as nothing can then close the
 * element or open a comment.
 */
export function apiAnswerBlocks(texts: string[]): string {
  let blocks = ''
  for (let i = 0; i < texts.length; i++) blocks += `<script type="application/json" ${API_ANSWER_ATTRIBUTE}="${i + 1}">${texts[i]!.replace(/</g, '\\u003c')}</script>`
  return blocks
}
