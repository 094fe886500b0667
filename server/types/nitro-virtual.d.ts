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
