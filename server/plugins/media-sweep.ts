import { sweepMediaDeletions } from '../services/media-deletions'

/** How often each instance looks for media removals that are due (one indexed query when none is). */
const SWEEP_EVERY_MS = 5_000

/**
 * Retries the removals of media that a store did not confirm (down, stalled,
 * or the process was killed in between): see media-deletions.ts. Every
 * instance sweeps; a claimed row is tried by one of them only. Starts once
 * the start-up work (migrations) is done; a failing pass is logged once
 * until one succeeds again. At start on a store no other instance uses,
 * every recorded removal is tried at once, due or not.
 */
export default defineNitroPlugin((nitroApp) => {
  let timer: NodeJS.Timeout | undefined
  let running = false
  let failing = false
  const pass = async (options: { everything?: boolean } = {}) => {
    if (running) return
    running = true
    try {
      const removed = await sweepMediaDeletions(useDB(), mediaStore(), options)
      if (removed > 0) console.info(`[media] removed the files of ${removed} deleted or failed upload(s)`)
      failing = false
    }
    catch (error) {
      if (!failing) console.warn(`[media] could not sweep media removals: ${(error as Error).message}`)
      failing = true
    }
    finally {
      running = false
    }
  }
  serverStarted().then(() => {
    timer = setInterval(pass, SWEEP_EVERY_MS)
    timer.unref()
    // A store of this instance alone has no removal in flight elsewhere: what a kill left goes now.
    void pass({ everything: !mediaStore().shared })
  }, () => { /* the start failed: the process is ending */ })
  nitroApp.hooks.hook('close', () => {
    clearInterval(timer)
  })
})
