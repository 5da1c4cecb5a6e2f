/**
 * Wall and process CPU time (all threads: JS, DuckDB's workers, a simulator thread if any) per
 * named phase of one append, for debug logs (`PERPS_LOG_LEVEL=4`). CPU is what counts on a
 * shared machine: wall times there mostly measure the neighbours.
 */
export class PhaseCpu {
  private wall = performance.now();
  private cpu = process.cpuUsage();
  private readonly laps: [name: string, wallMs: number, cpuMs: number][] = [];

  /** Ends the current phase under `name` and starts the next. */
  lap(name: string): void {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    this.laps.push([name, wall - this.wall, (cpu.user - this.cpu.user + cpu.system - this.cpu.system) / 1000]);
    this.wall = wall;
    this.cpu = cpu;
  }

  toString(): string {
    return this.laps.map(([n, w, c]) => `${n} ${w.toFixed(0)} ms (cpu ${c.toFixed(0)})`).join(', ');
  }
}
