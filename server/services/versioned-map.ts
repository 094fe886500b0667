/**
 * Entries that hold for one data version (`Database.dataVersion`, which
 * moves with every commit by any connection or instance): seeing another
 * version drops them all, and an entry made at a version that is no longer
 * the current one is not kept. Past `max` entries the oldest goes first.
 *
 * The list cache (list-cache.ts), the page cache (page-cache.ts) and the
 * fast path's replayed answers (server/plugins/api-fast-path.ts) each keep
 * theirs in one, so all three drop what a write made stale the same way.
 */
export class VersionedMap<V> {
  private version = ''
  private readonly entries = new Map<string, V>()

  constructor(private readonly max: number) {}

  /** The entry of `key` at `version`; a version other than the current one becomes current, with no entries. */
  get(version: string, key: string): V | undefined {
    this.moveTo(version)
    return this.entries.get(key)
  }

  /** Keeps `value` as `key`'s newest entry if `version` is still the current one; answers whether it did. */
  set(version: string, key: string, value: V): boolean {
    if (version !== this.version) return false
    this.entries.delete(key)
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, value)
    return true
  }

  /** Drops `key`'s entry if `version` is still the current one and the entry is `value`. */
  delete(version: string, key: string, value: V): void {
    if (version === this.version && this.entries.get(key) === value) this.entries.delete(key)
  }

  /** Drops every entry and forgets the version (it could not be read: nothing kept can be trusted). */
  clear(): void {
    this.entries.clear()
    this.version = ''
  }

  private moveTo(version: string): void {
    if (version === this.version) return
    this.entries.clear()
    this.version = version
  }
}
