/**
 * The simulator's event queue: a binary min-heap over typed arrays (the queue is popped a few
 * thousand times per simulated day, so tuple objects and their comparisons showed in profiles).
 *
 * Order key: event time in whole seconds × 2^26 + insertion number mod 2^26, an exact integer
 * below 2^53 for any time before year ~2140 (times are whole seconds). Equal times pop in
 * insertion order (up to 67M insertions apart); the order is a pure function of the stored keys,
 * so it never depends on heap layout or on how a run was split.
 */

export const EventKind = {
  /** an adjustment of an open lifecycle (ref = position id) */
  Adjust: 1,
  /** the planned close of an open lifecycle (ref = position id) */
  Close: 2,
  /** a trader's arrival (ref = trader index × 2 + protocol: 0 alpha, 1 beta) */
  Arrival: 3,
  /** a tourist's visit (ref = see tourists.ts visitRef) */
  Visit: 4,
} as const;
export type EventKind = (typeof EventKind)[keyof typeof EventKind];

/** JSON state of the queue: parallel arrays in heap order */
export interface QueueState {
  keys: number[];
  kinds: number[];
  refs: number[];
  seq: number;
}

const SEQ_SPAN = 67_108_864; // 2^26

/** Min-heap of scheduled trader events (see the module comment). */
export class EventQueue {
  private keys: Float64Array;
  private kinds: Uint8Array;
  private refs: Float64Array;
  private n: number;
  private seq: number;

  constructor(state?: QueueState) {
    const n = state ? state.keys.length : 0;
    const cap = Math.max(1024, n * 2);
    this.keys = new Float64Array(cap);
    this.kinds = new Uint8Array(cap);
    this.refs = new Float64Array(cap);
    this.n = n;
    this.seq = state ? state.seq : 0;
    if (state) {
      this.keys.set(state.keys);
      this.kinds.set(state.kinds);
      this.refs.set(state.refs);
    }
  }

  get size(): number {
    return this.n;
  }

  /** Time (ms) of the next event, or Infinity when empty. */
  peekTime(): number {
    return this.n > 0 ? Math.floor(this.keys[0]! / SEQ_SPAN) * 1_000 : Infinity;
  }

  /** Schedules an event at `time` (epoch ms, a whole second). */
  push(time: number, kind: EventKind, ref: number): void {
    if (this.n === this.keys.length) this.grow();
    const key = Math.floor(time / 1_000) * SEQ_SPAN + (this.seq++ % SEQ_SPAN);
    const keys = this.keys;
    let i = this.n++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      this.move(parent, i);
      i = parent;
    }
    keys[i] = key;
    this.kinds[i] = kind;
    this.refs[i] = ref;
  }

  /** Kind and ref of the next event (call after checking peekTime); removes it. */
  pop(): { time: number; kind: EventKind; ref: number } {
    const keys = this.keys;
    const top = { time: Math.floor(keys[0]! / SEQ_SPAN) * 1_000, kind: this.kinds[0] as EventKind, ref: this.refs[0]! };
    const last = --this.n;
    if (last > 0) {
      const key = keys[last]!;
      const kind = this.kinds[last]!;
      const ref = this.refs[last]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= last) break;
        const r = l + 1;
        const c = r < last && keys[r]! < keys[l]! ? r : l;
        if (keys[c]! >= key) break;
        this.move(c, i);
        i = c;
      }
      keys[i] = key;
      this.kinds[i] = kind;
      this.refs[i] = ref;
    }
    return top;
  }

  private move(from: number, to: number): void {
    this.keys[to] = this.keys[from]!;
    this.kinds[to] = this.kinds[from]!;
    this.refs[to] = this.refs[from]!;
  }

  private grow(): void {
    const cap = this.keys.length * 2;
    const keys = new Float64Array(cap);
    const kinds = new Uint8Array(cap);
    const refs = new Float64Array(cap);
    keys.set(this.keys);
    kinds.set(this.kinds);
    refs.set(this.refs);
    this.keys = keys;
    this.kinds = kinds;
    this.refs = refs;
  }

  state(): QueueState {
    return {
      keys: Array.from(this.keys.subarray(0, this.n)),
      kinds: Array.from(this.kinds.subarray(0, this.n)),
      refs: Array.from(this.refs.subarray(0, this.n)),
      seq: this.seq,
    };
  }
}
