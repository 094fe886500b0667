import { apiAnswerBlocks } from '#shared/utils/api-answers'

/**
 * Writes the data blocks of the API answers a render put aside for its
 * payload (plugins/api-answers.ts) after the app's markup, where the browser
 * has them before Nuxt's deferred entry module revives the payload. They are
 * data, never run: the Content-Security-Policy needs no hash for them.
 */
export default defineNitroPlugin((nitroApp) => {
  nitroApp.hooks.hook('render:html', (html, { event }) => {
    const texts = event.context.apiAnswers as string[] | undefined
    if (texts?.length) html.body.push(apiAnswerBlocks(texts))
  })
})
