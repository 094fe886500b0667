/** First of all: see server/utils/tick-object.ts. */
export default defineNitroPlugin(() => {
  keepTickObject()
})
