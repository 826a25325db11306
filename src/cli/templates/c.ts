/** `toolhost new c`: a wasi-libc program built with clang, adapted to a component by jco. */
import { envelopeSidecar, EXAMPLE_MAX_TIMES, exampleHelp, quoteLiteral, readme, type TemplateFile, type ToolTemplate } from './template.ts';

function source(name: string): string {
  const helpLines = exampleHelp(name)
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `  "${quoteLiteral(line)}\\n"`)
    .join('\n');
  return `/* ${name}: a toolhost tool. Build with ./build.sh; see README.md for the contract. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char HELP[] =
${helpLines};

/* Prints text as a JSON string literal (quotes and escapes included). */
static void print_json_string(const char *text) {
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    switch (*p) {
      case '"': fputs("\\\\\\"", stdout); break;
      case '\\\\': fputs("\\\\\\\\", stdout); break;
      case '\\n': fputs("\\\\n", stdout); break;
      case '\\r': fputs("\\\\r", stdout); break;
      case '\\t': fputs("\\\\t", stdout); break;
      default:
        if (*p < 0x20) printf("\\\\u%04x", *p);
        else putchar(*p);
    }
  }
  putchar('"');
}

/* The failure contract: {"error": "..."} on stdout and a non-zero exit. */
static int fail(const char *message) {
  fputs("{\\"error\\": ", stdout);
  print_json_string(message);
  fputs("}\\n", stdout);
  return 1;
}

int main(int argc, char **argv) {
  long times = 1;
  int upper = 0;
  const char *text = NULL;
  int options_done = 0; /* after "--" every argument is TEXT, even one that starts with "-" */
  char message[256];

  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    const char *value = NULL;
    if (options_done) {
      if (text != NULL) return fail("expected one TEXT argument; quote text that contains spaces");
      text = arg;
    } else if (strcmp(arg, "--") == 0) {
      options_done = 1;
    } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(HELP, stdout);
      return 0;
    } else if (strcmp(arg, "-u") == 0 || strcmp(arg, "--upper") == 0) {
      upper = 1;
    } else if (strcmp(arg, "-n") == 0 || strcmp(arg, "--times") == 0 || strncmp(arg, "--times=", 8) == 0) {
      if (strncmp(arg, "--times=", 8) == 0) value = arg + 8;
      else if (i + 1 < argc) value = argv[++i];
      else return fail("--times needs a value, e.g. --times 3");
      char *end = NULL;
      errno = 0;
      times = strtol(value, &end, 10);
      if (errno != 0 || end == value || *end != '\\0' || times < 1 || times > ${EXAMPLE_MAX_TIMES}) {
        snprintf(message, sizeof message, "--times must be a whole number from 1 to ${EXAMPLE_MAX_TIMES}, got \\"%.40s\\"", value);
        return fail(message);
      }
    } else if (arg[0] == '-' && arg[1] != '\\0') {
      snprintf(message, sizeof message, "unknown option %.60s; run --help for the options", arg);
      return fail(message);
    } else if (text == NULL) {
      text = arg;
    } else {
      return fail("expected one TEXT argument; quote text that contains spaces");
    }
  }
  if (text == NULL) return fail("missing the TEXT argument: the text to repeat");

  size_t length = strlen(text);
  char *result = malloc(length * (size_t)times + (size_t)times + 1);
  if (result == NULL) return fail("out of memory");
  char *out = result;
  for (long n = 0; n < times; n++) {
    if (n > 0) *out++ = ' ';
    for (size_t k = 0; k < length; k++) *out++ = upper ? (char)toupper((unsigned char)text[k]) : text[k];
  }
  *out = '\\0';

  /* The success contract: {"content": "...", "metadata": {...}} on stdout, exit 0. */
  fputs("{\\"content\\": ", stdout);
  print_json_string(result);
  printf(", \\"metadata\\": {\\"times\\": %ld, \\"upper\\": %s}}\\n", times, upper ? "true" : "false");
  free(result);
  return 0;
}
`;
}

function buildScript(name: string): string {
  return `#!/bin/sh
# Builds ${name}.wasm: clang compiles a wasip1 core module against wasi-libc, then jco wraps it
# with the WASI preview1 command adapter into a wasip2 command component.
# Needs clang with the wasm32 target and wasi-libc (Debian: apt-get install clang lld wasi-libc
# libclang-rt-14-dev-wasm32, or the WASI SDK: CC=/opt/wasi-sdk/bin/clang ./build.sh) and Node.js for jco.
set -eu
cd "$(dirname "$0")"
CC="\${CC:-clang}"
JCO="\${JCO:-npx --yes @bytecodealliance/jco@1.11.2}"
"$CC" --target=wasm32-wasi -O2 -Wall -Wl,--strip-debug -o ${name}.core.wasm ${name}.c
$JCO new ${name}.core.wasm --wasi-command -o ${name}.wasm
echo "built ${name}.wasm"
`;
}

export const cTemplate: ToolTemplate = {
  language: 'c',
  toolchain: 'clang (wasm32-wasi) + jco',
  buildCommand: './build.sh',
  files(name: string): TemplateFile[] {
    return [
      { path: `${name}.c`, content: source(name) },
      envelopeSidecar(name),
      { path: 'build.sh', content: buildScript(name), executable: true },
      { path: '.gitignore', content: '*.wasm\n' },
      {
        path: 'README.md',
        content: readme(name, {
          language: 'C',
          build: ['./build.sh                      # clang --target=wasm32-wasi, then jco new --wasi-command', `ls -l ${name}.wasm`],
          layout: [
            `\`${name}.c\`: the tool: argument parsing, \`--help\`, the JSON output contract`,
            '`build.sh`: compiler and adapter steps (`CC=` and `JCO=` override the tools)',
          ],
          notes: [
            `toolhost also loads the wasip1 core module \`${name}.core.wasm\` directly (it adapts wasip1 modules itself),`,
            'so the jco step is optional when you only target toolhost.',
          ],
        }),
      },
    ];
  },
};
