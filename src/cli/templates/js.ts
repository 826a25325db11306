/** `toolhost new js`: a JavaScript module componentized with ComponentizeJS (its own `componentize-js` CLI). */
import { envelopeSidecar, EXAMPLE_MAX_TIMES, exampleHelp, quoteLiteral, readme, type TemplateFile, type ToolTemplate } from './template.ts';
import { WASI_VERSION, wasiWitFiles } from './wasi-wit.ts';

/**
 * The npm versions the template is built and tested with, pinned exactly: ComponentizeJS, the jco it
 * depends on, and the preview2-shim at the top of node_modules (with 0.26 hoisted there, ComponentizeJS
 * 0.23 fails to read its own input files).
 */
export const JS_TOOLCHAIN_VERSIONS = {
  '@bytecodealliance/componentize-js': '0.23.0',
  '@bytecodealliance/jco': '1.35.0',
  '@bytecodealliance/preview2-shim': '0.25.0',
} as const;

function source(name: string): string {
  return `// ${name}: a toolhost tool. Build with ./build.sh; see README.md for the contract.
import { getArguments } from 'wasi:cli/environment@${WASI_VERSION}';

// Printed for --help; toolhost parses it into the tool's schema. Keep the layout.
const HELP = "${quoteLiteral(exampleHelp(name))}";

class ToolError extends Error {}

function runTool(args) {
  let times = 1;
  let upper = false;
  let text;
  let optionsDone = false; // after "--" every argument is TEXT, even one that starts with "-"
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (optionsDone) {
      if (text !== undefined) throw new ToolError('expected one TEXT argument; quote text that contains spaces');
      text = arg;
    } else if (arg === '--') {
      optionsDone = true;
    } else if (arg === '-h' || arg === '--help') {
      console.log(HELP.trimEnd());
      return undefined;
    } else if (arg === '-u' || arg === '--upper') {
      upper = true;
    } else if (arg === '-n' || arg === '--times' || arg.startsWith('--times=')) {
      let value;
      if (arg.startsWith('--times=')) value = arg.slice('--times='.length);
      else if (index + 1 < args.length) value = args[++index];
      else throw new ToolError('--times needs a value, e.g. --times 3');
      times = /^\\d+$/.test(value) ? Number(value) : 0;
      if (times < 1 || times > ${EXAMPLE_MAX_TIMES}) throw new ToolError(\`--times must be a whole number from 1 to ${EXAMPLE_MAX_TIMES}, got \${JSON.stringify(value)}\`);
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new ToolError(\`unknown option \${arg}; run --help for the options\`);
    } else if (text === undefined) {
      text = arg;
    } else {
      throw new ToolError('expected one TEXT argument; quote text that contains spaces');
    }
  }
  if (text === undefined) throw new ToolError('missing the TEXT argument: the text to repeat');
  if (upper) text = text.toUpperCase();
  // The success contract: {"content": "...", "metadata": {...}} on stdout, exit 0.
  return { content: Array(times).fill(text).join(' '), metadata: { times, upper } };
}

// The wasi:cli/run export: the component's main. Throwing makes run() return an error (non-zero exit).
export const run = {
  run() {
    let result;
    try {
      result = runTool(getArguments().slice(1));
    } catch (error) {
      // The failure contract: {"error": "..."} on stdout and a non-zero exit.
      console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
      throw error;
    }
    if (result !== undefined) console.log(JSON.stringify(result));
  },
};
`;
}

const WORLD = `package toolhost:tool;

// A command component: exports wasi:cli/run and reads its arguments from wasi:cli/environment.
world tool {
  import wasi:cli/environment@${WASI_VERSION};
  export wasi:cli/run@${WASI_VERSION};
}
`;

function buildScript(name: string): string {
  return `#!/bin/sh
# Builds ${name}.wasm with ComponentizeJS (run npm install in this folder first; package.json pins the versions).
# The WASI WIT packages the world uses are in wit/deps (written by toolhost new): no network needed.
set -eu
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/componentize-js ]; then
  echo "build.sh: ComponentizeJS is not installed here; run npm install in $(pwd) first" >&2
  exit 1
fi
node_modules/.bin/componentize-js ${name}.js --wit wit --world-name tool -o ${name}.wasm
echo "built ${name}.wasm"
`;
}

function packageJson(name: string): string {
  return `${JSON.stringify(
    {
      name: name.toLowerCase().replace(/[^a-z0-9-]/g, '-'),
      private: true,
      type: 'module',
      scripts: { build: 'sh build.sh' },
      devDependencies: JS_TOOLCHAIN_VERSIONS,
    },
    null,
    2,
  )}\n`;
}

export const jsTemplate: ToolTemplate = {
  language: 'js',
  toolchain: 'ComponentizeJS',
  buildCommand: 'npm install && ./build.sh',
  files(name: string): TemplateFile[] {
    return [
      { path: `${name}.js`, content: source(name) },
      { path: 'wit/world.wit', content: WORLD },
      ...wasiWitFiles(),
      { path: 'package.json', content: packageJson(name) },
      envelopeSidecar(name),
      { path: 'build.sh', content: buildScript(name), executable: true },
      { path: '.gitignore', content: 'node_modules/\n*.wasm\n' },
      {
        path: 'README.md',
        content: readme(name, {
          language: 'JavaScript',
          build: ['npm install                     # once: ComponentizeJS, pinned in package.json', './build.sh', `ls -l ${name}.wasm`],
          layout: [`\`${name}.js\`: the tool: \`run.run\` is its main; argument parsing, \`--help\`, the JSON output contract`, `\`wit/world.wit\`: the world; \`wit/deps/\`: the WASI ${WASI_VERSION} WIT it uses (no fetch needed)`, '`package.json`, `build.sh`'],
          notes: ['ComponentizeJS embeds a JS engine (about 10 MiB); toolhost transpiles and caches it on first load.'],
        }),
      },
    ];
  },
};
