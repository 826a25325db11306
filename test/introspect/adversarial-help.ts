/** Help texts built to hurt a parser: huge, deeply bracketed, unterminated, binary. Shared by the fuzz test and its bench. */
export const adversarialHelpTexts: [string, () => string][] = [
  ['5 MB of text', () => 'Usage: big [OPTION]... FILE\n'.concat('  -a, --alpha=NUM   something [default: 3]\n'.repeat(130_000))],
  ['one 5 MB line', () => 'x'.repeat(5 * 1024 * 1024)],
  ['thousands of dashes', () => '-'.repeat(200_000)],
  ['dash lines', () => `${'  ---------------------------------------- --------\n'.repeat(20_000)}`],
  ['nested brackets', () => `Usage: p ${'['.repeat(100_000)}${']'.repeat(100_000)}\n  --x=${'['.repeat(50_000)}`],
  ['nested angle and braces', () => `  -a, --all ${'<{['.repeat(30_000)}  text ${'(default: '.repeat(30_000)}`],
  ['unclosed annotation groups', () => `  --opt VALUE   desc ${'[default: '.repeat(40_000)}`],
  ['many options', () => Array.from({ length: 20_000 }, (_, index) => `  -${String.fromCharCode(97 + (index % 26))}, --opt-${index}=N  option ${index}`).join('\n')],
  ['Go-like lines', () => '  -x string\n    \tdesc (default "'.repeat(50_000)],
  ['usage forms', () => `Usage:\n${'  prog [--a=<x>|--b] (c|d)... <e>...\n'.repeat(20_000)}`],
  ['binary noise', () => Array.from({ length: 200_000 }, (_, index) => String.fromCharCode((index * 7919) % 65_536)).join('')],
  ['escape sequences', () => '\u001b[1m--bold\u001b[0m  x\n'.repeat(50_000)],
  ['CR line ends', () => '  -a, --b  c\r'.repeat(100_000)],
  ['tabs', () => '\t\t-a\t--b\t\tc\n'.repeat(50_000)],
  // ReDoS attacks found by the regex audit (each line within the line cap; a tab widens to 8 spaces after it)
  ['rich top borders, long gaps', () => `Usage: p [OPTIONS]\n\n${`┌─${' '.repeat(990)}x\n┌${'─'.repeat(990)}x\n`.repeat(125)}`],
  ['tab runs in descriptions', () => `Usage: p [OPTIONS]\n\nOptions:\n${[`a (${'\t'.repeat(970)}x`, `(default:${'\t'.repeat(970)}x`, `a,${'\t'.repeat(480)}or${'\t'.repeat(480)}x`].map((tail) => `  --mode <m>  ${tail}\n`).join('').repeat(85)}`],
  ['gapped parenthesized names', () => `Usage: p [OPTIONS]\n\nOptions:\n${`  --mode <m>  Output (a)${`,${' '.repeat(8)}x${' '.repeat(8)}(b)`.repeat(8)}\n`.repeat(10)}`],
  ['tab runs in usage lines', () => `Usage: p${'\t'.repeat(990)}x\n${`  p${'\t'.repeat(990)}x\n`.repeat(250)}`],
  // round 17: a bare form opening the help, words glued to ellipses (`x...`: a word and an ellipsis one way only)
  ['ellipses glued to bare words', () => `p [options] ${'x... '.repeat(190)}!\n$ p ${'[a]... '.repeat(130)}!\n`],
];
