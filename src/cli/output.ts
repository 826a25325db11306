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
}

/**
 * A plain left-aligned table. The last column is truncated to fit `width` when one is given
 * (the terminal width on a TTY); colour is applied after padding so alignment holds.
 */
export function renderTable<Row>(rows: readonly Row[], columns: readonly TableColumn<Row>[], options: { paint: Paint; width?: number }): string {
  const cells = rows.map((row) => columns.map((column) => column.value(row)));
  const widths = columns.map((column, index) => Math.max(column.header.length, ...cells.map((cellRow) => cellRow[index]?.length ?? 0)));
  const gap = '  ';
  const lastIndex = columns.length - 1;
  const fixedWidth = widths.slice(0, lastIndex).reduce((sum, width) => sum + width + gap.length, 0);
  const lastWidth = options.width === undefined ? undefined : Math.max(20, options.width - fixedWidth);
  const renderRow = (values: readonly string[], paintCell: (index: number, padded: string) => string): string =>
    values
      .map((value, index) => {
        if (index === lastIndex) return paintCell(index, lastWidth === undefined ? value : truncate(value, lastWidth));
        return paintCell(index, value.padEnd(widths[index] ?? 0));
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
