/**
 * What sandboxed code prints with `console.log` and friends: kept for the result's metadata, bounded so
 * a chatty loop cannot grow the host's memory or the model's context.
 */
export class BoundedConsole {
  private readonly lines: string[] = [];
  private used = 0;
  private truncated = false;

  constructor(private readonly maxChars: number) {}

  /** Records one printed line (`level` is the console method: log, info, warn, error, debug). */
  write(level: string, text: string): void {
    const line = level === 'log' || level === 'info' ? text : `[${level}] ${text}`;
    const room = this.maxChars - this.used;
    if (room <= 0 || line.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = line.length <= room ? line : `${line.slice(0, room)}…`;
    this.lines.push(kept);
    this.used += kept.length + 1;
  }

  /** The printed text, one line per call, and whether any of it was cut or dropped. */
  snapshot(): { text: string; truncated: boolean } {
    return { text: this.lines.join('\n'), truncated: this.truncated };
  }
}
