/** Wall time per named phase of one operation, for debug logs (`PERPS_LOG_LEVEL=4`). */
export class PhaseTimer {
  private last = performance.now();
  private readonly laps: [string, number][] = [];

  /** Ends the current phase under `name` and starts the next. */
  lap(name: string): void {
    const now = performance.now();
    this.laps.push([name, now - this.last]);
    this.last = now;
  }

  toString(): string {
    return this.laps.map(([n, ms]) => `${n} ${ms.toFixed(0)} ms`).join(', ');
  }
}
