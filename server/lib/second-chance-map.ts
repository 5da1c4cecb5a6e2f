/**
 * A Map bounded by a budget of weight (bytes, or one per entry), for the read side's caches (the
 * response cache, server/cache/response-cache.ts; the edge buckets, server/read/buckets/edge-buckets.ts).
 *
 * Past the budget the oldest entries go first, except that an entry used since it was stored or
 * since the eviction last passed over it moves to the newest end instead, once (second chance, an
 * approximation of least-recently-used). Why not exact LRU: that moves an entry to the end of its
 * Map on every hit (`delete` + `set`), and V8 makes that cost grow with the Map's size when the same
 * few keys are hit again and again (docs/performance.md, "Second-chance eviction"). A polling
 * client, or the edge of every moving history window, is exactly that. A use here only marks the
 * key (`touch`); entries move only when the budget is passed.
 */
export class SecondChanceMap<K, V> {
  private readonly entries = new Map<K, V>();
  /** keys used since they were stored or last passed over */
  private readonly used = new Set<K>();
  private total = 0;

  /**
   * @param budget the most weight kept
   * @param weigh an entry's weight (fixed for as long as it is kept)
   */
  constructor(
    private readonly budget: number,
    private readonly weigh: (key: K, value: V) => number,
  ) {}

  /** Entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** Their summed weight. */
  get weight(): number {
    return this.total;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value under `key`, without marking it used. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** Marks `key` used (it then outlives unused entries at the next eviction). */
  touch(key: K): void {
    if (this.entries.has(key)) this.used.add(key);
  }

  /**
   * Stores `value` under `key`: a new key as the newest (not yet used), a kept one in its place
   * (its use kept). Then drops other entries, as the file comment says, until the budget holds:
   * never this one, even when every other was used (they are then passed over and the oldest goes).
   */
  set(key: K, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined) this.total -= this.weigh(key, old);
    this.entries.set(key, value);
    this.total += this.weigh(key, value);
    // oldest first; a used entry moves to the newest end unused, where the iteration (a Map's
    // sees entries added during it) reaches it again: each is passed over at most once a call
    for (const [k, v] of this.entries) {
      if (this.total <= this.budget) break;
      if (k === key) continue;
      this.entries.delete(k);
      if (this.used.delete(k)) this.entries.set(k, v);
      else this.total -= this.weigh(k, v);
    }
  }

  delete(key: K): boolean {
    const old = this.entries.get(key);
    if (old === undefined) return false;
    this.entries.delete(key);
    this.used.delete(key);
    this.total -= this.weigh(key, old);
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.used.clear();
    this.total = 0;
  }

  /** The entries, oldest first (deleting during the walk is fine, as with a Map). */
  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries[Symbol.iterator]();
  }

  keys(): MapIterator<K> {
    return this.entries.keys();
  }
}
