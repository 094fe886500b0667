declare module '#nitro-internal-virtual/server-handlers' {
  import type { EventHandler } from 'h3'

  export const handlers: {
    route?: string
    method?: string
    middleware?: boolean
    lazy?: boolean
    handler: EventHandler | (() => Promise<EventHandler>)
  }[]
}

declare module '#page-routes' {
  /** The paths of the site's pages as Nuxt's router has them (`/upload/:id()`), from nuxt.config.ts. */
  const pageRoutes: string[]
  export default pageRoutes
}

declare module '#build-stylesheets' {
  /** The browser build's stylesheets, as file names in the build's assets folder (`default.Bk-8JzEB.css`), from nuxt.config.ts. */
  const buildStylesheets: string[]
  export default buildStylesheets
}
