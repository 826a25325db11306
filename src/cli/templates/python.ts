/** `toolhost new python`: a Python app componentized with componentize-py for the wasi:cli command world. */
import { envelopeSidecar, EXAMPLE_MAX_TIMES, exampleHelp, readme, type TemplateFile, type ToolTemplate } from './template.ts';
import { WASI_VERSION, wasiWitFiles } from './wasi-wit.ts';

/** The componentize-py release the template is built and tested with (PyPI). */
export const COMPONENTIZE_PY_VERSION = '0.25.1';

/**
 * The one-time install, into a venv in the project folder: Debian's and Ubuntu's Python refuse a
 * system-wide `pip install` (PEP 668, "externally managed"). build.sh finds componentize-py there.
 */
export const PYTHON_SETUP_COMMAND = `python3 -m venv .venv && .venv/bin/pip install componentize-py==${COMPONENTIZE_PY_VERSION}`;

function source(name: string): string {
  return `"""${name}: a toolhost tool. Build with ./build.sh; see README.md for the contract."""
import json
import sys

from wit_world import exports

# Printed for --help; toolhost parses it into the tool's schema. Keep the layout.
HELP = """${exampleHelp(name)}"""


class ToolError(Exception):
    """A failure reported to the model as {"error": "..."}."""


def arguments() -> list[str]:
    """The command-line arguments the host passed (wasi:cli/environment), without the program name."""
    try:
        from wit_world.imports import environment

        return list(environment.get_arguments())[1:]
    except ImportError:
        return sys.argv[1:]


def run_tool(args: list[str]) -> dict | None:
    times = 1
    upper = False
    text = None
    options_done = False  # after "--" every argument is TEXT, even one that starts with "-"
    index = 0
    while index < len(args):
        arg = args[index]
        if options_done:
            if text is not None:
                raise ToolError("expected one TEXT argument; quote text that contains spaces")
            text = arg
        elif arg == "--":
            options_done = True
        elif arg in ("-h", "--help"):
            sys.stdout.write(HELP)
            return None
        elif arg in ("-u", "--upper"):
            upper = True
        elif arg in ("-n", "--times") or arg.startswith("--times="):
            if arg.startswith("--times="):
                value = arg[len("--times="):]
            elif index + 1 < len(args):
                index += 1
                value = args[index]
            else:
                raise ToolError("--times needs a value, e.g. --times 3")
            try:
                times = int(value)
            except ValueError:
                times = 0
            if not 1 <= times <= ${EXAMPLE_MAX_TIMES}:
                raise ToolError(f"--times must be a whole number from 1 to ${EXAMPLE_MAX_TIMES}, got {value!r}")
        elif arg.startswith("-") and arg != "-":
            raise ToolError(f"unknown option {arg}; run --help for the options")
        elif text is None:
            text = arg
        else:
            raise ToolError("expected one TEXT argument; quote text that contains spaces")
        index += 1
    if text is None:
        raise ToolError("missing the TEXT argument: the text to repeat")
    if upper:
        text = text.upper()
    # The success contract: {"content": "...", "metadata": {...}} on stdout, exit 0.
    return {"content": " ".join([text] * times), "metadata": {"times": times, "upper": upper}}


class Run(exports.Run):
    """The wasi:cli/run export: Python's main() for a command component."""

    def run(self) -> None:
        try:
            result = run_tool(arguments())
        except ToolError as error:
            # The failure contract: {"error": "..."} on stdout and a non-zero exit.
            print(json.dumps({"error": str(error)}))
            sys.stdout.flush()
            from componentize_py_types import Err

            raise Err(None)
        if result is not None:
            print(json.dumps(result))
        sys.stdout.flush()
`;
}

const WORLD = `package toolhost:tool;

// A command component: exports wasi:cli/run, imports the wasi:cli command world's interfaces.
world tool {
  include wasi:cli/command@${WASI_VERSION};
}
`;

function buildScript(name: string): string {
  return `#!/bin/sh
# Builds ${name}.wasm with componentize-py ${COMPONENTIZE_PY_VERSION}, from the venv in .venv when there is one:
#   ${PYTHON_SETUP_COMMAND}
# The WASI WIT packages the world includes are in wit/deps (written by toolhost new): no network needed.
set -eu
cd "$(dirname "$0")"
if [ -x .venv/bin/componentize-py ]; then
  PATH="$PWD/.venv/bin:$PATH"
fi
if ! command -v componentize-py >/dev/null 2>&1; then
  echo "build.sh: componentize-py not found; install it in a venv (a system-wide pip install is refused on Debian and Ubuntu): ${PYTHON_SETUP_COMMAND}" >&2
  exit 1
fi
componentize-py -d wit -w tool componentize app -o ${name}.wasm
echo "built ${name}.wasm"
`;
}

export const pythonTemplate: ToolTemplate = {
  language: 'python',
  toolchain: 'componentize-py',
  setupCommand: PYTHON_SETUP_COMMAND,
  buildCommand: './build.sh',
  files(name: string): TemplateFile[] {
    return [
      { path: 'app.py', content: source(name) },
      { path: 'wit/world.wit', content: WORLD },
      ...wasiWitFiles(),
      envelopeSidecar(name),
      { path: 'build.sh', content: buildScript(name), executable: true },
      { path: '.gitignore', content: '*.wasm\n__pycache__/\nwit_world/\n.venv/\n' },
      {
        path: 'README.md',
        content: readme(name, {
          language: 'Python',
          build: [`${PYTHON_SETUP_COMMAND}   # once, in a venv`, './build.sh', `ls -l ${name}.wasm`],
          layout: [
            '`app.py`: the tool: `Run.run` is its main; argument parsing (`--` ends the options), `--help`, the JSON output contract',
            `\`wit/world.wit\`: the command world; \`wit/deps/\`: the WASI ${WASI_VERSION} WIT it includes (no fetch needed)`,
            '`build.sh`',
          ],
          notes: [
            'componentize-py goes into a venv (`.venv`, which build.sh uses): Debian and Ubuntu refuse a system-wide `pip install`.',
            'Python components embed the interpreter (tens of MiB); toolhost transpiles and caches them on first load,',
            'so the first start is slow and later ones are fast. `toolhost check` reports the start-up time.',
            'componentize-py output uses the wasm extended-const feature: Node.js 22+ has it; on Node.js 20 toolhost switches it on itself.',
          ],
        }),
      },
    ];
  },
};
