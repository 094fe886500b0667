import { createHook } from 'node:async_hooks'

/** The one tick object kept; module state, so it lives as long as the process. */
let kept: object | undefined

/**
 * Keeps one of Node's own `process.nextTick` objects alive for the life of
 * the process, and answers it.
 *
 * Processes of this server started from one build answered the same cached
 * list at two speeds on the 2-core bench machine, about 50,000 or 37,000
 * req/s, and kept theirs: 17 of 37 starts were slow. perf put the slow
 * ones' extra time in V8's runtime (`Runtime_DefineKeyedOwnPropertyInLiteral`,
 * `JSObject::MigrateToMap`) building the object literal `nextTick` makes for
 * every socket write and read, where a fast process ran compiled code. With
 * one such object held from start-up none of 26 starts was slow, and perf
 * finds no such runtime call: the object keeps its hidden class, and the
 * transitions the literal goes through, from being collected and rebuilt
 * under the compiled code that relies on them.
 *
 * Node hands the object to async hooks as the resource of a `TickObject`:
 * a hook is on for one `nextTick` call here, and off again.
 */
export function keepTickObject(): object | undefined {
  if (kept) return kept
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === 'TickObject') kept ??= resource
    },
  })
  hook.enable()
  process.nextTick(() => {})
  hook.disable()
  return kept
}
