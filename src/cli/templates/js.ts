/** `toolhost new js`: a JavaScript module componentized with ComponentizeJS (jco componentize). */
import { EXAMPLE_MAX_TIMES, exampleHelp, quoteLiteral, readme, type TemplateFile, type ToolTemplate } from './template.ts';

function source(name: string): string {
  return `// ${name}: a toolhost tool. Build with ./build.sh; see README.md for the contract.
import { getArguments } from 'wasi:cli/environment@0.2.3';

// Printed for --help; toolhost parses it into the tool's schema. Keep the layout.
const HELP = "${quoteLiteral(exampleHelp(name))}";

class ToolError extends Error {}

function runTool(args) {
  let times = 1;
  let upper = false;
  let text;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === '-h' || arg === '--help') {
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
  import wasi:cli/environment@0.2.3;
  export wasi:cli/run@0.2.3;
}
`;

function buildScript(name: string): string {
  return `#!/bin/sh
# Builds ${name}.wasm with ComponentizeJS through jco (npm install in this folder first).
# The WASI WIT packages go in wit/deps: fetch them once with wkg (cargo install wkg) -- \`wkg wit fetch\` --
# or copy the wasi-cli 0.2.3 WIT from https://github.com/WebAssembly/wasi-cli.
set -eu
cd "$(dirname "$0")"
npx jco componentize ${name}.js --wit wit --world-name tool -o ${name}.wasm
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
      devDependencies: { '@bytecodealliance/jco': '^1.11.2', '@bytecodealliance/componentize-js': '^0.18.0' },
    },
    null,
    2,
  )}\n`;
}

export const jsTemplate: ToolTemplate = {
  language: 'js',
  toolchain: 'ComponentizeJS (jco componentize)',
  buildCommand: 'npm install && ./build.sh',
  files(name: string): TemplateFile[] {
    return [
      { path: `${name}.js`, content: source(name) },
      { path: 'wit/world.wit', content: WORLD },
      { path: 'package.json', content: packageJson(name) },
      { path: 'build.sh', content: buildScript(name), executable: true },
      { path: '.gitignore', content: 'node_modules/\n*.wasm\n' },
      {
        path: 'README.md',
        content: readme(name, {
          language: 'JavaScript',
          build: ['npm install', '(cd wit && wkg wit fetch)           # once: the WASI WIT packages into wit/deps', './build.sh', `ls -l ${name}.wasm`],
          layout: [`\`${name}.js\`: the tool: \`run.run\` is its main; argument parsing, \`--help\`, the JSON output contract`, '`wit/world.wit`: the world', '`package.json`, `build.sh`'],
          notes: ['ComponentizeJS embeds a JS engine (about 10 MiB); toolhost transpiles and caches it on first load.'],
        }),
      },
    ];
  },
};
