/**
 * Choices the help does not state must not be invented: an enum built from examples refuses values
 * the program takes. Each case is a help line seen in a real tool where a list-shaped phrase names
 * examples, members of a larger set, a pattern, or a type; and one where every alternative counts.
 */
import { describe, expect, it } from 'vitest';
import { parseHelp } from '../../src/introspect/parse-help.ts';
import type { CliOption } from '../../src/introspect/spec.ts';

function optionOf(line: string, long: string): CliOption | undefined {
  return parseHelp(`Usage: tool [options]\n\nOptions:\n${line}\n`, { fileName: 'tool.wasm' }).options.find((option) => option.long === long);
}

describe('lists that are no choices', () => {
  it('quantities with a unit are examples of an open set (ncu --cooldown, jscpd --max-size)', () => {
    const cooldown = optionOf('  -c, --cooldown <period>    Accepts a number (days) or a string with a unit: "7d" (days), "12h" (hours), "30m" (minutes).', 'cooldown');
    expect(cooldown).toMatchObject({ takes_value: true, choices: null });
    const size = optionOf('  --max-size <size>   Maximum file size, one of 1kb, 1mb, 120kb', 'max-size');
    expect(size).toMatchObject({ takes_value: true, choices: null });
  });

  it('type names describe a field, not a value (prettier --file-info)', () => {
    const info = optionOf('  --file-info <path>   Extract the info for a file. Fields: * inferredParser (string | null) - name of parser', 'file-info');
    expect(info).toMatchObject({ takes_value: true, choices: null });
  });

  it('a group glued to the text around it is part of a pattern (vegeta (ip|host):port, knip.(js|ts))', () => {
    expect(optionOf("  --connect-to <value>   A mapping of (ip|host):port to use instead of a target URL's (ip|host):port.", 'connect-to')?.choices).toBeNull();
    expect(optionOf('  -c, --config [file]   Configuration file path (default: knip.json, knip.(js|ts) or package.json#knip)', 'config')?.choices).toBeNull();
  });

  it('members of a list the option adds to are no list of its values (black --python-cell-magics)', () => {
    const magics = optionOf('  --python-cell-magics TEXT   Add the given magic to the list of known python-magics (capture, prun, pypy, python, python3, time, timeit).', 'python-cell-magics');
    expect(magics).toMatchObject({ takes_value: true, choices: null });
  });

  it('lower-case values beside an upper-case placeholder leave the set open (argparse {keep,no,INTEGER})', () => {
    const spec = parseHelp('usage: mdformat [-h] [--wrap {keep,no,INTEGER}] [--eol {lf,crlf,keep}]\n\noptions:\n  --wrap {keep,no,INTEGER}\n                        paragraph word wrap mode (default: keep)\n  --eol {lf,crlf,keep}  output file line ending mode (default: lf)\n', { fileName: 'mdformat.wasm' });
    expect(spec.options.find((option) => option.long === 'wrap')).toMatchObject({ takes_value: true, choices: null });
    expect(spec.options.find((option) => option.long === 'eol')?.choices).toEqual(['lf', 'crlf', 'keep']);
  });

  it('a numeric range among the values stands for every number in it (iperf --dscp)', () => {
    expect(optionOf('  --dscp <val>   set the IP dscp value, either 0-63 or symbolic.', 'dscp')).toMatchObject({ takes_value: true, choices: null });
  });

  it('alternatives naming where a value comes from are a placeholder (cspell <module|path>, markdownlint <file|directory|glob|package>)', () => {
    expect(optionOf('  --reporter <module|path>     Specify one or more reporters to use.', 'reporter')).toMatchObject({ takes_value: true, choices: null });
    expect(optionOf('  -r, --rules <file|directory|glob|package>  include custom rule files', 'rules')).toMatchObject({ takes_value: true, choices: null });
    // literal values stay choices, a module among them too
    expect(optionOf('  --type <commonjs|module>   Module type', 'type')?.choices).toEqual(['commonjs', 'module']);
    expect(optionOf('  --crate-type <bin|lib|rlib>   Crate types', 'crate-type')?.choices).toEqual(['bin', 'lib', 'rlib']);
  });

  it('an `or` alternative that a clause goes on from leaves the list open (mmdc --output)', () => {
    expect(optionOf('  -o, --output <output>   Output file. It should be either md, svg, png, pdf or use `-` to output to stdout.', 'output')?.choices).toBeNull();
    expect(optionOf('  --format <fmt>   Output format, either text, markdown, or total.', 'format')?.choices).toEqual(['text', 'markdown', 'total']);
    // nor is its `Default: input + ".svg"` a value: an operator goes on from it
    expect(optionOf('  -o, --output <output>   Output file. Optional. Default: input + ".svg"', 'output')?.default).toBeNull();
  });

  it('a real value list still counts: (merge, diff3, or zdiff3) and a|b|c stay choices', () => {
    expect(optionOf('  --conflict <style>   Conflict style (merge, diff3, or zdiff3)', 'conflict')?.choices).toEqual(['merge', 'diff3', 'zdiff3']);
    expect(optionOf('  --level <level>   Level of messages (suggestion | warning | error)', 'level')?.choices).toEqual(['suggestion', 'warning', 'error']);
  });
});

describe('quoted alternatives', () => {
  it('every `, or` alternative is a choice (vite --configLoader)', () => {
    const loader = optionOf(
      "  --configLoader <loader>  [string] use 'bundle' to bundle the config with Rolldown, or 'runner' (experimental) to process it on the fly, or 'native' (experimental) to load using the native runtime (default: bundle)",
      'configLoader',
    );
    expect(loader).toMatchObject({ choices: ['bundle', 'runner', 'native'], default: 'bundle' });
  });

  it('`one of` before quoted values (argp cpio --warning)', () => {
    expect(optionOf("  -W, --warning=FLAG   Control warning display. Currently FLAG is one of 'none', 'truncate', 'all'. Multiple options accumulate.", 'warning')?.choices).toEqual([
      'none', 'truncate', 'all',
    ]);
  });
});
