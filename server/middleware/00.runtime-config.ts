/**
 * Every request reads the one runtime config Nitro built at start, with the
 * environment already applied. Without this, Nuxt's renderer asks for a copy
 * per request (`useRuntimeConfig(event)`): a deep clone of the whole config
 * with every key looked up in the environment again, 6% of the server's time
 * rendering the home page in a `node --cpu-prof` profile. Settings are read
 * from the environment once, at start (README "Configuration"), so the copy
 * would always equal the shared one. A middleware rather than a `request`
 * hook, so requests that skip the pipeline pay nothing for it.
 */
export default defineEventHandler((event) => {
  event.context.nitro ??= { errors: [] }
  event.context.nitro.runtimeConfig ??= useRuntimeConfig()
})
