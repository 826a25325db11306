/**
 * Shared CLI output: the streams a command writes to, colour (only on a TTY and when NO_COLOR is
 * unset), one-line errors with a hint, JSON printing and plain text tables.
 */

/** Exit codes every command uses. */
export const EXIT_OK = 0;
/** A tool returned is_error, a check found errors, or the operation failed. */
export const EXIT_FAILURE = 1;
/** Bad flags, malformed arguments, unknown tool: the command line was wrong. */
export const EXIT_USAGE = 2;

/** A stream the CLI writes to; `isTTY` decides colour and progress output. */
export interface OutputStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** Everything a command needs from its surroundings, so commands never touch `process` directly. */
export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/**
 * An error the CLI reports as one line: `toolhost: <message>` and, when present, `(hint: ...)`.
 * `exitCode` 2 marks a usage error.
 */
export class CliError extends Error {
  readonly exitCode: number;
  readonly hint: string | undefined;

  constructor(message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.exitCode = options.exitCode ?? EXIT_FAILURE;
    this.hint = options.hint;
  }
}

/** A usage error (exit 2): the command line itself was wrong. */
export function usageError(message: string, hint?: string): CliError {
  return new CliError(message, { exitCode: EXIT_USAGE, ...(hint === undefined ? {} : { hint }) });
}

/** True when colour may be written to `stream`: a TTY and NO_COLOR unset (or empty). */
export function colourEnabled(stream: OutputStream, env: NodeJS.ProcessEnv): boolean {
  const noColour = env['NO_COLOR'];
  return stream.isTTY === true && (noColour === undefined || noColour === '');
}

export type ColourName = 'red' | 'yellow' | 'green' | 'cyan' | 'dim' | 'bold';

const COLOUR_CODES: Record<ColourName, [number, number]> = {
  red: [31, 39],
  yellow: [33, 39],
  green: [32, 39],
  cyan: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
};

export type Paint = (colour: ColourName, text: string) => string;

/** A painter for one stream: wraps text in ANSI codes only when colour is enabled there. */
export function painterFor(stream: OutputStream, env: NodeJS.ProcessEnv): Paint {
  if (!colourEnabled(stream, env)) return (_colour, text) => text;
  return (colour, text) => {
    const [open, close] = COLOUR_CODES[colour];
    return `\u001b[${open}m${text}\u001b[${close}m`;
  };
}

/** Collapses whitespace runs (including newlines) so a message is one line. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** Writes an error as ONE line (`toolhost: error: ... (hint: ...)`), plus the stack with `--debug`. */
export function writeError(io: CliIo, error: unknown, options: { debug?: boolean } = {}): void {
  const paint = painterFor(io.stderr, io.env);
  const message = error instanceof Error ? error.message : String(error);
  const hint = error instanceof CliError ? error.hint : undefined;
  const hintText = hint === undefined ? '' : ` ${paint('dim', `(hint: ${oneLine(hint)})`)}`;
  io.stderr.write(`toolhost: ${paint('red', 'error:')} ${oneLine(message)}${hintText}\n`);
  if (options.debug && error instanceof Error && error.stack) {
    io.stderr.write(`${error.stack}\n`);
    if (error.cause instanceof Error && error.cause.stack) io.stderr.write(`caused by: ${error.cause.stack}\n`);
  }
}

/** Writes a warning line on stderr. */
export function writeWarning(io: CliIo, message: string): void {
  const paint = painterFor(io.stderr, io.env);
  io.stderr.write(`toolhost: ${paint('yellow', 'warning:')} ${oneLine(message)}\n`);
}

/** Prints a value as pretty JSON on stdout, with a trailing newline. */
export function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Ensures text ends with exactly one newline, so output never runs into the shell prompt. */
export function withTrailingNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The first line of a (possibly multi-line) text, trimmed. */
export function firstLine(text: string): string {
  return (text.split('\n', 1)[0] ?? '').trim();
}

/** Shortens text to `width` characters with an ellipsis. */
export function truncate(text: string, width: number): string {
  if (width <= 1 || text.length <= width) return text;
  return `${text.slice(0, width - 1)}…`;
}

export interface TableColumn<Row> {
  header: string;
  value: (row: Row) => string;
  colour?: (row: Row) => ColourName | undefined;
  /**
   * May be cut (with `…`) when the table is wider than `width`: the last column always may, down to
   * `TABLE_LAST_COLUMN_MIN`; a column marked so, down to `max(header, TABLE_COLUMN_MIN)`, and only once
   * the last one is at its least.
   */
  truncatable?: boolean;
}

/** The least width the last column is cut to. */
export const TABLE_LAST_COLUMN_MIN = 10;
/** The least width another truncatable column is cut to (never below its header). */
export const TABLE_COLUMN_MIN = 8;

/**
 * The width a command's tables should fit: `COLUMNS` when it is a positive whole number (as `ls` and
 * `git` read it, so `COLUMNS=100 toolhost list | less` works), else the terminal's width on a TTY,
 * else none (piped output stays whole).
 */
export function outputWidth(stream: OutputStream, env: NodeJS.ProcessEnv): number | undefined {
  const fromEnv = env['COLUMNS'];
  if (fromEnv !== undefined && /^\d{1,5}$/.test(fromEnv.trim()) && Number(fromEnv) > 0) return Number(fromEnv);
  const columns = (stream as { columns?: unknown }).columns;
  return stream.isTTY === true && typeof columns === 'number' && columns > 0 ? columns : undefined;
}

/** Column widths that fit `width` where the truncatable columns allow it (see TableColumn.truncatable). */
function fittedWidths(natural: readonly number[], columns: readonly { header: string; truncatable?: boolean }[], width: number, gap: number): number[] {
  const widths = [...natural];
  const lastIndex = widths.length - 1;
  const total = (): number => widths.reduce((sum, value) => sum + value, 0) + gap * lastIndex;
  const minimum = (index: number): number =>
    index === lastIndex ? Math.min(natural[index] ?? 0, TABLE_LAST_COLUMN_MIN) : Math.min(natural[index] ?? 0, Math.max(columns[index]?.header.length ?? 0, TABLE_COLUMN_MIN));
  let excess = total() - width;
  if (excess <= 0) return widths;
  const lastCut = Math.min(excess, (widths[lastIndex] ?? 0) - minimum(lastIndex));
  widths[lastIndex] = (widths[lastIndex] ?? 0) - lastCut;
  excess -= lastCut;
  // then the widest truncatable column, one character at a time, so they end up even
  while (excess > 0) {
    let widest = -1;
    for (let index = 0; index < lastIndex; index++) {
      if (columns[index]?.truncatable !== true || (widths[index] ?? 0) <= minimum(index)) continue;
      if (widest === -1 || (widths[index] ?? 0) > (widths[widest] ?? 0)) widest = index;
    }
    if (widest === -1) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    excess -= 1;
  }
  return widths;
}

/**
 * A plain left-aligned table. With `width` (see `outputWidth`) it is fitted to it: the last column,
 * then the columns marked truncatable, are cut with an ellipsis; colour is applied after padding so
 * alignment holds. Only a width below the columns' least widths leaves lines longer than `width`.
 */
export function renderTable<Row>(rows: readonly Row[], columns: readonly TableColumn<Row>[], options: { paint: Paint; width?: number }): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const natural = columns.map((column, index) => Math.max(column.header.length, ...cells.map((cellRow) => cellRow[index]?.length ?? 0)));
  const gap = '  ';
  const lastIndex = columns.length - 1;
  const widths = options.width === undefined ? natural : fittedWidths(natural, columns, options.width, gap.length);
  const lastWidth = options.width === undefined ? undefined : widths[lastIndex];
  const renderRow = (values: readonly string[], paintCell: (index: number, padded: string) => string): string =>
    values
      .map((value, index) => {
        if (index === lastIndex) return paintCell(index, lastWidth === undefined ? value : truncate(value, lastWidth));
        const width = widths[index] ?? 0;
        return paintCell(index, truncate(value, width).padEnd(width));
      })
      .join(gap)
      .trimEnd();
  const header = renderRow(
    columns.map((column) => column.header),
    (_index, padded) => options.paint('bold', padded),
  );
  const body = rows.map((row, rowIndex) =>
    renderRow(cells[rowIndex] ?? [], (index, padded) => {
      const colour = columns[index]?.colour?.(row);
      return colour === undefined ? padded : options.paint(colour, padded);
    }),
  );
  return [header, ...body].join('\n') + '\n';
}
