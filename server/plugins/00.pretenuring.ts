import { setFlagsFromString } from 'node:v8'

/**
 * First of all: V8 stops guessing which allocations will live long.
 *
 * V8 watches how many objects from each place in the code survive a young
 * collection, and once most do, it allocates that place's objects straight in
 * the old generation ("allocation-site pretenuring"). A full collection under
 * load counts every request then in flight as surviving, so a server's
 * per-request objects (an event, its context) were soon allocated old. Each
 * then held the young objects its request made after it, so every young
 * collection copied them, and they stayed until the next full collection:
 * from the first full collection on (about ten seconds into a load), young
 * collections copied 1.5 MB each where they had copied 0.2 MB, took 5 ms
 * where they had taken 1, and full collections came every 1.5 s. A
 * signed-in vote's p99 went from 6–8 ms to 12 ms, and a GET through Nitro's
 * pipeline (/robots.txt) answered a third fewer requests a second
 * (docs/performance.md, "Where a write's time goes").
 *
 * Nothing a request makes lives long; what does (the caches, the prepared
 * statements) is copied once or twice and then stays old. V8 reads the flag
 * at each collection, so setting it here, before the first request, is as
 * good as on the command line, however the server is started.
 */
export default defineNitroPlugin(() => {
  setFlagsFromString('--no-allocation-site-pretenuring')
})
