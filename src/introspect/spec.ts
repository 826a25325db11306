/**
 * The CLI spec: how toolhost understood a command-line program. It is the single source of a wasm
 * tool's JSON Schema (via `cliSpecToZod`) and of its JSON-to-argv mapping (via `cliSpecToArgv`).
 * Field names are snake_case because this shape is printed verbatim by `toolhost inspect --json`.
 */
export type CliValueType = 'integer' | 'number' | 'boolean' | 'string' | 'path';

export interface CliOption {
  /** Long name without dashes (`dry-run`), or null. Go-style single-dash long names are stored here too. */
  long: string | null;
  /** Short name without the dash (`n`), or null. */
  short: string | null;
  /** Other spellings, with their dashes (`--dryrun`, `-D`). */
  aliases: string[];
  takes_value: boolean;
  value_name: string | null;
  type: CliValueType;
  default: string | number | boolean | null;
  choices: string[] | null;
  repeatable: boolean;
  required: boolean;
  /** The negating flag with its dashes (`--no-color`), or null. */
  negation: string | null;
  description: string | null;
  /** How the option is written on the command line: `--long`, `-long` (Go flag), `-s`. */
  prefix?: '--' | '-';
  /** The value may be omitted (`--color[=WHEN]`); argv then always attaches it as `--long=VALUE`. */
  value_optional?: boolean;
}

export interface CliPositional {
  name: string;
  required: boolean;
  variadic: boolean;
  description?: string | null;
  type?: CliValueType;
}

export interface CliSubcommand {
  name: string;
  description: string | null;
}

/**
 * How a tool's stdout is read: `text` (the default) takes it as the content as it is; `envelope` reads
 * one JSON object `{content, error | is_error, metadata}` as toolhost's result envelope.
 */
export type CliOutputFormat = 'envelope' | 'text';

export interface CliSpec {
  name: string;
  description: string;
  options: CliOption[];
  positionals: CliPositional[];
  subcommands: CliSubcommand[];
  /**
   * The program reads its input from stdin (from `--help-json` or `.tool.json` `"stdin": true`): the
   * schema gains a `stdin` string property whose value is piped to it. Without it, stdin is empty.
   */
  stdin?: boolean;
  /**
   * `"envelope"` when the program prints toolhost's result envelope (from `--help-json` or `.tool.json`
   * `"output"`); absent or `"text"`: its stdout is the content verbatim (JSON-printing CLIs included).
   */
  output?: CliOutputFormat;
}
