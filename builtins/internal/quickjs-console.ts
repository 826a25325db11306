/**
 * What sandboxed code prints with `console.log` and friends: kept for the result's metadata, bounded so
 * a chatty loop cannot grow the host's memory or the model's context.
 *
 * The executor process keeps one as the code prints, and the daemon keeps a mirror of the lines it is
 * sent (`keep`), under the same bound, so a run the daemon kills still reports what it printed.
 */
export class BoundedConsole {
  private readonly lines: string[] = [];
  private used = 0;
  private cut = false;
  private readonly maxChars: number;

  constructor(maxChars: number) {
    this.maxChars = maxChars;
  }

  /**
   * Records one printed line (`level` is the console method: log, info, warn, error, debug) and returns
   * the line as kept (shortened, ending in `…`, when it did not fit), or undefined when there was no room.
   */
  write(level: string, text: string): string | undefined {
    return this.keep(level === 'log' || level === 'info' ? text : `[${level}] ${text}`);
  }

  /** Records an already formatted line under the bound; a line `write` returned fits a mirror of it unchanged. */
  keep(line: string): string | undefined {
    const room = this.maxChars - this.used;
    if (room <= 0 || line.length > room) this.cut = true;
    if (room <= 0) return undefined;
    const kept = line.length <= room ? line : `${line.slice(0, room - 1)}…`;
    this.lines.push(kept);
    this.used += kept.length + 1;
    return kept;
  }

  /** Marks the output as cut (a mirror told so by the console it mirrors). */
  markTruncated(): void {
    this.cut = true;
  }

  /** Whether any output was cut or dropped. */
  get truncated(): boolean {
    return this.cut;
  }

  /** The printed text, one line per call, and whether any of it was cut or dropped. */
  snapshot(): { text: string; truncated: boolean } {
    return { text: this.lines.join('\n'), truncated: this.cut };
  }
}
