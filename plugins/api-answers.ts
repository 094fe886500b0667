/**
 * API answers travel in the page's payload as their JSON text, read back with
 * JSON.parse. devalue walks every value of a payload through each of Nuxt's
 * reducers (refs, reactive, errors) to keep references and types JSON does
 * not have; answers of our API are plain JSON, and walking them was 10% of a
 * signed-in home page render at 48 uploads a page (`node --cpu-prof`:
 * devalue's `flatten`). Registered before Nuxt's own revivers (order -30),
 * which read the payload.
 */
export default defineNuxtPlugin({
  name: 'api-answers-payload',
  order: -40,
  setup() {
    definePayloadReducer('ApiAnswer', value => isApiAnswer(value) && JSON.stringify(value))
    definePayloadReviver('ApiAnswer', (json: string) => JSON.parse(json))
  },
})
