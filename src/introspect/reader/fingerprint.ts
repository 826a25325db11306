/**
 * The framework fingerprint: ONE table of scored signatures that says which argument parser printed
 * a help (cobra/pflag, Go flag, urfave, kong, kingpin, clap, argparse/optparse, click/typer/rich,
 * yargs, commander, oclif, docopt, GNU getopt/argp, or generic), and the few layout traits the
 * readers key on (kingpin's defaults in
 * place of placeholders, …). Every framework sniff of the readers lives here, nowhere else.
 *
 * Each signature is a list of marks, each a bounded, line-anchored regex with a weight: a help's
 * score for a framework is the sum of the weights of the marks it shows; the framework is the one of
 * highest score at or above `MIN_SCORE` (generic otherwise, or on a tie). Linear in the text.
 */
import { looksLikeGoFlag } from '../dialects/goflag.ts';
import { isColonDefaultHelp } from '../dialects/goflag.ts';
import { isCobraHelp } from '../dialects/cobra.ts';

export type Framework =
  | 'cobra'
  | 'goflag'
  | 'urfave'
  | 'kong'
  | 'kingpin'
  | 'clap'
  | 'argparse'
  | 'click'
  | 'yargs'
  | 'commander'
  | 'oclif'
  | 'docopt'
  | 'gnu'
  | 'generic';

interface Mark {
  /** Tested against the whole (capped) help with the `m` flag: anchor per line, bound every repeat. */
  pattern: RegExp;
  weight: number;
}

/** The table: framework → its marks. A mark of weight ≥ MIN_SCORE names the framework alone. */
export const SIGNATURES: Readonly<Record<Exclude<Framework, 'generic'>, readonly Mark[]>> = {
  cobra: [
    { pattern: /^Use "[^"\n]{1,80} \[command\] --help" for more information/m, weight: 4 },
    { pattern: /^Global Flags:$/m, weight: 3 },
    { pattern: /^\s+-h, --help\s+help for [\w-]{1,40}$/m, weight: 3 },
    { pattern: /^Available Commands:$/m, weight: 2 },
    { pattern: /^Flags:$/m, weight: 1 },
  ],
  goflag: [
    { pattern: /^Usage of \S{1,80}:$/m, weight: 3 },
    { pattern: /^ {2}-[A-Za-z][\w.-]{0,40}(?: [a-z][\w.]{0,20})?\n {4}\t\S/m, weight: 3 },
  ],
  urfave: [
    { pattern: /^\s+--help, -h\s+show help(?: \(default: false\))?$/m, weight: 4 },
    { pattern: /^\s+--version, -v\s+print the version(?: \(default: false\))?$/m, weight: 3 },
    { pattern: /^GLOBAL OPTIONS:$/m, weight: 2 },
    { pattern: /^ {3}[\w.-]{1,40} - \S/m, weight: 1 },
    { pattern: /^USAGE:$/m, weight: 1 },
  ],
  kong: [
    { pattern: /^\s+-h, --help\s+Show context-sensitive help\.$/m, weight: 4 },
    { pattern: /^Run "[^"\n]{1,80} <command> --help" for more information/m, weight: 3 },
  ],
  kingpin: [
    { pattern: /Show context-sensitive help \(also try --help-long and --help-man\)\.$/m, weight: 4 },
  ],
  clap: [
    { pattern: /\[possible values: [^\]\n]{1,400}\]/m, weight: 3 },
    { pattern: /^\s+-h, --help\s+Print help(?: \(see more with '--help'\)| information)?$/m, weight: 3 },
    { pattern: /^\s+-V, --version\s+Print version(?: information)?$/m, weight: 2 },
    { pattern: /^\s+-h, --help\s+Prints help information$/m, weight: 3 },
    { pattern: /^Usage: \S{1,80}(?: [a-z][\w-]{0,30}){0,3} \[OPTIONS\]/m, weight: 1 },
  ],
  argparse: [
    { pattern: /^\s+-h, --help\s+show this help message and exit$/m, weight: 4 },
    { pattern: /^(?:optional arguments|positional arguments):$/m, weight: 3 },
    { pattern: /^usage: \S{1,80} \[-h\]/m, weight: 2 },
  ],
  click: [
    { pattern: /^\s+(?:-h, )?--help\s+Show this message and exit\.$/m, weight: 4 },
    { pattern: /^\s+(?:-[Vv], )?--version\s+Show the version and exit\.$/m, weight: 2 },
    { pattern: /^[╭┌]─ Options ─/m, weight: 4 },
    { pattern: /^Usage: \S{1,80}(?: [a-z][\w-]{0,30}){0,3} \[OPTIONS\]/m, weight: 1 },
  ],
  yargs: [
    { pattern: /^\s+(?:-[\w?], ){0,3}--help\s+Show help\s+\[boolean\]$/m, weight: 4 },
    { pattern: /^\s+(?:-\w, ){0,3}--version\s+Show version number\s+\[boolean\]$/m, weight: 3 },
    { pattern: /\s\[(?:boolean|string|number|array|count)\](?: \[(?:required|default: [^\]\n]{0,80})\])?$/m, weight: 1 },
  ],
  commander: [
    { pattern: /^\s+-h, --help\s+display help for command$/m, weight: 4 },
    { pattern: /^\s+-V, --version\s+output the version number$/m, weight: 3 },
  ],
  oclif: [
    { pattern: /^USAGE\n {2}\$ \S/m, weight: 3 },
    { pattern: /<options: [^>\n]{1,200}>/m, weight: 2 },
    { pattern: /^(?:FLAGS|GLOBAL FLAGS|DESCRIPTION|EXAMPLES)$/m, weight: 1 },
  ],
  docopt: [
    { pattern: /^Usage:\n(?: {2,}\S{1,80} [^\n]{0,200}\n){2,}/m, weight: 2 },
    { pattern: /^\s+-h --help\s+Show this screen\.$/m, weight: 4 },
    { pattern: /^\s+\S{1,40} \(-h \| --help\)$/m, weight: 2 },
    { pattern: /^\s+-[A-Za-z] --[\w-]{1,40}(?:=<[\w-]{1,40}>)?\s{2,}\S/m, weight: 1 },
    { pattern: /^\s+--[\w-]{1,40}=<[\w-]{1,40}>\s+\S[^\n]{0,300}\[default: [^\]\n]{1,80}\]$/m, weight: 1 },
  ],
  gnu: [
    { pattern: /^\s+--help\s+(?:display this help and exit|give this help list)$/m, weight: 4 },
    { pattern: /^Mandatory arguments to long options are mandatory for short options too\.$/m, weight: 3 },
    { pattern: /^Usage: \S{1,80} \[OPTION\]\.\.\./m, weight: 2 },
    { pattern: /^Report bugs to/m, weight: 1 },
  ],
};

/** The least score that names a framework. */
export const MIN_SCORE = 3;

/** Layout traits the readers key on (each the sniff a reader used to carry, moved here). */
export interface HelpTraits {
  /** kong / kingpin `Show context-sensitive help.` (or etcd's `--help[=false]`): defaults in place of placeholders. */
  defaultInPlaceholder: boolean;
  /** etcdctl `--help[=false]`: boolean defaults in brackets after the flag. */
  bracketedBoolDefaults: boolean;
  /** Go flag (and old pflag) `--name=DEFAULT:` heads. */
  colonDefaults: boolean;
}

export interface Fingerprint {
  framework: Framework;
  /** Every framework's score (those above 0). */
  scores: Partial<Record<Framework, number>>;
  traits: HelpTraits;
}

/** kong `Show context-sensitive help.` and kingpin's `… (also try --help-long and --help-man).`. */
const KINGPIN_HELP_FLAG = /\bShow context-sensitive help(?:\.| \(also try --help-long and --help-man\)\.)?$/;
/** etcdctl's template writes each flag with its default: `-h, --help[=false]  help for get`. */
const ETCD_HELP_FLAG = /^\s*(?:-h, )?--help\[=false\]\s/;

/** The traits of a help's (capped, normalized) lines. */
function helpTraits(lines: readonly string[]): HelpTraits {
  return {
    defaultInPlaceholder: lines.some((line) => KINGPIN_HELP_FLAG.test(line.trim()) || ETCD_HELP_FLAG.test(line)),
    bracketedBoolDefaults: lines.some((line) => ETCD_HELP_FLAG.test(line)),
    colonDefaults: isColonDefaultHelp(lines),
  };
}

/** Scores the help against every signature and names its framework. */
export function fingerprintHelp(lines: readonly string[]): Fingerprint {
  const text = lines.join('\n');
  const traits = helpTraits(lines);
  const scores: Partial<Record<Framework, number>> = {};
  for (const [framework, marks] of Object.entries(SIGNATURES) as [Exclude<Framework, 'generic'>, readonly Mark[]][]) {
    const score = marks.reduce((sum, mark) => sum + (mark.pattern.test(text) ? mark.weight : 0), 0);
    if (score > 0) scores[framework] = score;
  }
  if (looksLikeGoFlag(lines)) scores.goflag = Math.max(scores.goflag ?? 0, MIN_SCORE);
  if (isCobraHelp(lines)) scores.cobra = Math.max(scores.cobra ?? 0, MIN_SCORE);
  const ranked = (Object.entries(scores) as [Framework, number][]).sort((a, b) => b[1] - a[1]);
  const [top, second] = ranked;
  const framework: Framework = top !== undefined && top[1] >= MIN_SCORE && (second === undefined || second[1] < top[1]) ? top[0] : 'generic';
  return { framework, scores, traits };
}
