/** `toolhost new go`: a stdlib-only Go program built with GOOS=wasip1 GOARCH=wasm. */
import { envelopeSidecar, EXAMPLE_MAX_TIMES, exampleHelp, readme, type TemplateFile, type ToolTemplate } from './template.ts';

function source(name: string): string {
  return `// ${name}: a toolhost tool. Build with ./build.sh; see README.md for the contract.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// help is printed for --help; toolhost parses it into the tool's schema. Keep the layout.
const help = \`${exampleHelp(name)}\`

type success struct {
	Content  string         \`json:"content"\`
	Metadata map[string]any \`json:"metadata"\`
}

// fail is the failure contract: {"error": "..."} on stdout and a non-zero exit.
func fail(format string, args ...any) {
	out, _ := json.Marshal(map[string]string{"error": fmt.Sprintf(format, args...)})
	fmt.Println(string(out))
	os.Exit(1)
}

func main() {
	times := 1
	upper := false
	text := ""
	haveText := false
	optionsDone := false // after "--" every argument is TEXT, even one that starts with "-"

	args := os.Args[1:]
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case optionsDone:
			if haveText {
				fail("expected one TEXT argument; quote text that contains spaces")
			}
			text, haveText = arg, true
		case arg == "--":
			optionsDone = true
		case arg == "-h" || arg == "--help":
			fmt.Print(help)
			return
		case arg == "-u" || arg == "--upper":
			upper = true
		case arg == "-n" || arg == "--times" || strings.HasPrefix(arg, "--times="):
			value := strings.TrimPrefix(arg, "--times=")
			if value == arg {
				if i+1 >= len(args) {
					fail("--times needs a value, e.g. --times 3")
				}
				i++
				value = args[i]
			}
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > ${EXAMPLE_MAX_TIMES} {
				fail("--times must be a whole number from 1 to ${EXAMPLE_MAX_TIMES}, got %q", value)
			}
			times = n
		case strings.HasPrefix(arg, "-") && arg != "-":
			fail("unknown option %s; run --help for the options", arg)
		case !haveText:
			text, haveText = arg, true
		default:
			fail("expected one TEXT argument; quote text that contains spaces")
		}
	}
	if !haveText {
		fail("missing the TEXT argument: the text to repeat")
	}

	if upper {
		text = strings.ToUpper(text)
	}
	parts := make([]string, times)
	for i := range parts {
		parts[i] = text
	}
	// The success contract: {"content": "...", "metadata": {...}} on stdout, exit 0.
	out, _ := json.Marshal(success{Content: strings.Join(parts, " "), Metadata: map[string]any{"times": times, "upper": upper}})
	fmt.Println(string(out))
}
`;
}

function buildScript(name: string): string {
  return `#!/bin/sh
# Builds ${name}.wasm.
# - With TinyGo (>= 0.33) installed: tinygo build -target=wasip2 emits a wasip2 command component.
# - Otherwise: the standard Go toolchain (>= 1.21) builds a wasip1 command module, and ${name}.wasm is that module:
#   toolhost adds the WASI preview1 command adapter itself when it loads the file. (jco new --wasi-command refuses
#   recent Go output: "module has duplicate import for wasi_snapshot_preview1::fd_write".)
set -eu
cd "$(dirname "$0")"
if command -v tinygo >/dev/null 2>&1; then
  tinygo build -target=wasip2 -no-debug -o ${name}.wasm .
else
  GOOS=wasip1 GOARCH=wasm go build -trimpath -ldflags="-s -w" -o ${name}.wasm .
fi
echo "built ${name}.wasm"
`;
}

export const goTemplate: ToolTemplate = {
  language: 'go',
  toolchain: 'TinyGo (wasip2), or Go >= 1.21 (wasip1)',
  buildCommand: './build.sh',
  files(name: string): TemplateFile[] {
    return [
      { path: 'main.go', content: source(name) },
      { path: 'go.mod', content: `module ${name}\n\ngo 1.21\n` },
      envelopeSidecar(name),
      { path: 'build.sh', content: buildScript(name), executable: true },
      { path: '.gitignore', content: '*.wasm\n' },
      {
        path: 'README.md',
        content: readme(name, {
          language: 'Go',
          build: ['./build.sh                      # tinygo -target=wasip2, or GOOS=wasip1 GOARCH=wasm go build', `ls -l ${name}.wasm`],
          layout: ['`main.go`: the tool: argument parsing, `--help`, the JSON output contract (stdlib only)', '`go.mod`, `build.sh`'],
          notes: [
            'TinyGo builds small components (hundreds of KiB). The standard Go toolchain builds a few-MiB wasip1 module, which',
            'toolhost wraps with the WASI preview1 command adapter when it loads it. The first load transpiles and caches it.',
            "Go's `flag` package prints `-name value` help that toolhost also understands, but the clap-style help above maps",
            'more precisely (defaults, short and long names), so the template parses arguments by hand.',
          ],
        }),
      },
    ];
  },
};
