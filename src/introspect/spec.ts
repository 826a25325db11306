/**
 * The CLI spec: how toolhost understood a command-line program. It is the single source of a wasm
 * tool's JSON Schema (via `cliSpecToZod`) and of its JSON-to-argv mapping (via `cliSpecToArgv`).
 * Field names are snake_case because this shape is printed verbatim by `toolhost inspect --json`.
 */
import type { ToolEffect } from '../permission.ts';

export type CliValueType = 'integer' | 'number' | 'boolean' | 'string' | 'path';

/**
 * Where a field's value came from: `<kind>:<detail>`, kind one of `help` (a help-text reader,
 * `help:clap.default-bracket`), `probe` (asking the program, `probe:argparse.choose-from`), `sidecar`
 * (a spec the author ships, `sidecar:usage`), `help-json` (the program's own `--help-json`), `override`
 * (`.tool.json`). Shown per field by `toolhost inspect --json`.
 */
export type FieldSource = string;

/** Per-field provenance: field name (`choices`, `default`, `takes_value`, …) → its source. */
export type FieldSources = Record<string, FieldSource>;

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
  /** The value may be omitted (`--color[=WHEN]`, `-j[N]`); argv then always attaches it: `--long=VALUE`, `-sVALUE`. */
  value_optional?: boolean;
  /**
   * The value must be written in the same argument as the flag: glued to a short one (`-B#` → `-B4`,
   * `-O<level>` → `-O2`), or `--long=VALUE` (`-long=VALUE` for Go flag spellings). Without it a value
   * is its own argument after the flag (`--width 80`, `-o out.txt`).
   */
  attached?: boolean;
  /**
   * How many values one use takes when more than one (`--arg name value` → 2): the property is then a
   * tuple of that many values (an array of such tuples when repeatable) and argv writes the flag
   * followed by each of them as its own argument.
   */
  value_count?: number;
  /** The last value may be repeated (`-c <name> [<file> ...]`): the property's tuple ends in a rest array. */
  variadic_values?: boolean;
  /**
   * One use takes a list of values joined by this separator (`--style header,grid`, from "comma-separated
   * list of …"): with choices, the property is an array of them and argv joins it into one value.
   */
  value_separator?: ',';
  /**
   * What giving this option does to the world, when the author's spec declares it (usage's
   * `flag "--clear" effect="destructive"`): it raises the effect of the command it is given to.
   */
  effect?: ToolEffect;
  /**
   * Values the program itself offers for this option (its completion protocol, `probe:cobra.complete`):
   * suggestions, shown as the JSON Schema's `examples`, never an enum. Absent when the option has choices.
   */
  suggestions?: string[];
  /** Which reader, probe, sidecar or override decided each field (absent fields: not recorded). */
  sources?: FieldSources;
}

export interface CliPositional {
  name: string;
  required: boolean;
  variadic: boolean;
  description?: string | null;
  type?: CliValueType;
  /** Which reader, probe, sidecar or override decided each field. */
  sources?: FieldSources;
}

export interface CliSubcommand {
  name: string;
  description: string | null;
  /**
   * The subcommand's own options (from `<program> <name> --help`), without the ones the root also
   * has. They are allowed only with this command and go on the argv after it.
   */
  options?: CliOption[];
  /**
   * The subcommand's own positionals (from its help's usage line, `git clone [--] <repo> [<dir>]`),
   * without the ones the root also has. Allowed only with this command; on the argv after its options.
   */
  positionals?: CliPositional[];
  /**
   * The words that select a nested command on the command line (`["boot", "enable"]`, named
   * `boot enable`); absent: the name is the one word.
   */
  path?: string[];
  /**
   * What running this command does to the world, when the author's spec declares it: its own
   * `effect`, raised by any of its options' or arguments' (usage's rule: the maximum).
   */
  effect?: ToolEffect;
}

/**
 * How a tool's stdout is read: `text` (the default) takes it as the content as it is; `envelope` reads
 * one JSON object `{content, error | is_error, metadata}` as toolhost's result envelope; `mcp-content`
 * reads one JSON object in the shape of an MCP CallToolResult (text, image, audio, resource and
 * resource_link parts: src/results/mcp-content.ts).
 */
export type CliOutputFormat = 'envelope' | 'text' | 'mcp-content';

/**
 * One example call of the program: the arguments it is run with (`argv`, without the program name:
 * `["--label", "bug"]`), or the tool's argument object itself (`input`), with what it does. Read from
 * the help's EXAMPLES section (`help:examples`), or given by `--help-json` / `.tool.json` `examples`;
 * each is mapped through the spec and checked against the schema before it is offered
 * (src/introspect/examples/).
 */
export interface CliExample {
  description?: string | null;
  argv?: string[];
  input?: Record<string, unknown>;
}

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
  /**
   * JSON Schema of the program's stdout as a JSON object (from `--help-json` or `.tool.json`
   * `"output_schema"`): the tool's MCP `outputSchema`; a successful call's output must match it and is
   * returned as `structured_content` too (src/results/output-schema.ts).
   */
  output_schema?: Record<string, unknown>;
  /**
   * The media type of the program's stdout (from `--help-json` or `.tool.json` `"output_media_type"`,
   * e.g. `"image/png"`): a successful call's stdout is one image or audio part (src/results/media-types.ts).
   */
  output_media_type?: string;
  /**
   * Globs (relative to the workspace) of files the program writes that a call returns as resource
   * links when it created or changed them (from `--help-json` or `.tool.json` `"output_files"`;
   * src/results/written-files.ts).
   */
  output_files?: string[];
  /**
   * Exit codes that end a call with a result, not an error (from `--help-json` or `.tool.json`
   * `"success_exit_codes"`): grep's 1 means "no match". Absent: `[0]`.
   */
  success_exit_codes?: number[];
  /**
   * The program parses its root options after the subcommand too, and wants them there (cobra's
   * persistent flags, `Use "x [command] --help"`): argv is `[command, ...root options, ...]`.
   */
  options_after_command?: boolean;
  /**
   * The `command` property must be given even though the program has root positionals
   * (`Usage: hashenc [OPTIONS] <COMMAND> <TEXT>`). Without it, see `commandIsRequired`.
   */
  command_required?: boolean;
  /**
   * What running the program without a subcommand does to the world, when the author's spec declares
   * it (usage's top-level or root `effect`, raised by its root options' and arguments'). See
   * `toolEffectOf` for the tool's effect over all its commands.
   */
  effect?: ToolEffect;
  /** Example calls (see `CliExample`); absent when none were found or given. */
  examples?: CliExample[];
  /** Which reader, probe, sidecar or override decided each spec-level field (`description`, …). */
  sources?: FieldSources;
}
