import { API_ANSWER_ATTRIBUTE } from '#shared/utils/api-answers'

/**
 * API answers leave the page's payload: each travels as a data block of its
 * own after the app's markup, the JSON text it was parsed from but for `<`
 * (shared/utils/api-answers.ts), and the payload holds its number; the
 * browser reads it back with JSON.parse. (Writing the parsed answers out
 * again with JSON.stringify was 1.5% of a signed-in home page render.)
 *
 * devalue walks every value of a payload through each of Nuxt's reducers
 * (refs, reactive, errors) to keep references and types JSON does not have;
 * answers of our API are plain JSON. Walking them was 10% of a signed-in home
 * page render at 48 uploads a page (`node --cpu-prof`, devalue's `flatten`);
 * as JSON text inside the payload, devalue still escaped that text a
 * character at a time (6% of the render). Registered before Nuxt's own
 * revivers (order -30), which read the payload.
 */
export default defineNuxtPlugin({
  name: 'api-answers-payload',
  order: -40,
  setup(nuxtApp) {
    definePayloadReducer('ApiAnswer', (value) => {
      const text = apiAnswerText(value)
      if (text === undefined) return
      const texts: string[] = nuxtApp.ssrContext!.event.context.apiAnswers ??= []
      texts.push(text)
      return texts.length
    })
    definePayloadReviver('ApiAnswer', (number: number) => {
      const block = document.querySelector(`script[${API_ANSWER_ATTRIBUTE}="${number}"]`)
      return JSON.parse(block!.textContent!)
    })
  },
})
