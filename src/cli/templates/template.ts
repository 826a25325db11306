/**
 * What every `toolhost new` template shares: the files it produces, and the example tool all
 * languages implement identically (same help text, same JSON output contract), so a template
 * in any language parses into the same schema.
 */

export const TEMPLATE_LANGUAGES = ['c', 'go', 'python', 'rust', 'js'] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

export function isTemplateLanguage(value: unknown): value is TemplateLanguage {
  return typeof value === 'string' && (TEMPLATE_LANGUAGES as readonly string[]).includes(value);
}

export interface TemplateFile {
  /** Path relative to the project directory, with forward slashes. */
  path: string;
  content: string;
  executable?: boolean;
}

export interface ToolTemplate {
  language: TemplateLanguage;
  /** Display name of the language and toolchain, for messages. */
  toolchain: string;
  /** The one-time toolchain install the build needs beyond the language's compiler, if any (printed with `# once`). */
  setupCommand?: string;
  /** The command that builds the component, run in the project directory. */
  buildCommand: string;
  files(name: string): TemplateFile[];
}

/** The tool's description: the first line of its `--help`, which becomes the description a model reads. */
export const EXAMPLE_DESCRIPTION = 'Repeat a text a number of times, optionally in upper case';

/** Bounds of the example's `--times` option. */
export const EXAMPLE_MAX_TIMES = 100;

/**
 * The help text of the example tool, in the clap/GNU layout toolhost's help parser reads best:
 * a one-line description, a `Usage:` line, an `Arguments:` section, and an `Options:` section with
 * `-s, --long <VALUE>  description [default: x]` rows aligned on one column.
 */
export function exampleHelp(name: string): string {
  return [
    EXAMPLE_DESCRIPTION,
    '',
    `Usage: ${name} [OPTIONS] <TEXT>`,
    '',
    'Arguments:',
    '  <TEXT>  The text to repeat',
    '',
    'Options:',
    `  -n, --times <N>  How many times to repeat the text, 1 to ${EXAMPLE_MAX_TIMES} [default: 1]`,
    '  -u, --upper      Convert the text to upper case',
    '  -h, --help       Print help',
    '',
  ].join('\n');
}

/**
 * The `.tool.json` every template ships next to its `.wasm`: the example prints toolhost's result
 * envelope (`{"content", "metadata"}` / `{"error"}`), which toolhost reads only from tools that say so
 * (`"output": "envelope"`); without it, stdout would be the content verbatim, JSON text included.
 */
export function envelopeSidecar(name: string): TemplateFile {
  return { path: `${name}.tool.json`, content: `${JSON.stringify({ output: 'envelope' }, null, 2)}\n` };
}

/** The README every template ships, with the language's build and layout notes. */
export function readme(name: string, options: { language: string; build: string[]; layout: string[]; notes?: string[] }): string {
  return [
    `# ${name}`,
    '',
    `A toolhost tool written in ${options.language}: a WebAssembly command component (wasm32-wasip2) that toolhost`,
    'runs in a sandbox and offers to LLM agents. Its `--help` text is its interface: toolhost parses it into the',
    "tool's JSON Schema (the first line is the description a model reads), maps the model's JSON arguments to",
    'command-line arguments, and reads the result from stdout.',
    '',
    '## Build',
    '',
    '```sh',
    ...options.build,
    '```',
    '',
    '## Try it',
    '',
    '```sh',
    `toolhost check ${name}.wasm                 # does --help parse? size, start-up time`,
    `toolhost inspect ${name}.wasm               # the schema and argv mapping toolhost derived`,
    `cp ${name}.wasm ${name}.tool.json /path/to/toolhost/extensions/tools/   # hot-loaded by a running \`toolhost serve\``,
    `toolhost call ${name} '{"text": "hello", "times": 3}'`,
    '```',
    '',
    '## Publish',
    '',
    'Push the tool with its sidecars (`.tool.json`, `.policy.json`) to an OCI registry, signed, and install it',
    'elsewhere by reference (the policy travels with it, covered by the signature):',
    '',
    '```sh',
    `toolhost push ${name}.wasm oci://registry.example/tools/${name}:0.1.0 --sign --key cosign.key   # prints the digest`,
    `toolhost add oci://registry.example/tools/${name}:0.1.0 --key cosign.pub                       # on another machine`,
    '```',
    '',
    '## The contract',
    '',
    '- `--help` prints the help text and exits 0. Keep the layout: description line, `Usage:`, `Arguments:`,',
    '  `Options:` with `-s, --long <VALUE>  description [default: x]` rows. Options without a `<VALUE>` are booleans;',
    '  say `[default: x]` and `[possible values: a, b]` where they apply, so the schema gets defaults and enums.',
    `- \`${name}.tool.json\` says \`"output": "envelope"\`: toolhost then reads the JSON object below from stdout. Keep it next`,
    `  to the .wasm. Without it, stdout is the content as it is (right for a tool whose output is plain text or its own JSON).`,
    '- On success, print ONE JSON object on stdout and exit 0: `{"content": "text for the model", "metadata": {...}}`.',
    '  (Plain text on stdout also works; it becomes the content.)',
    '- On failure, print `{"error": "what went wrong and how to fix it"}` on stdout and exit non-zero. Write the message',
    '  for a model: say which argument was wrong and what a good value looks like.',
    '- The tool sees no files, no network and no environment unless a policy grants them: add a',
    `  \`${name}.policy.json\` next to the .wasm to do so.`,
    '',
    '## Files',
    '',
    ...options.layout.map((line) => `- ${line}`),
    `- \`${name}.tool.json\`: tells toolhost the tool prints its result envelope (\`"output": "envelope"\`)`,
    ...(options.notes && options.notes.length > 0 ? ['', '## Notes', '', ...options.notes] : []),
    '',
  ].join('\n');
}

/** Escapes text for a double-quoted string literal in C, Go, Rust, Python or JS source. */
export function quoteLiteral(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
