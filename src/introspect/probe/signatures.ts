/**
 * The one table of framework signatures: byte strings a command-line library compiles into every
 * program that uses it, found by a linear scan of the module (fingerprint.ts) before any probe is
 * sent. A framework is fingerprinted when every string of one of its `all` sets is present; its
 * probes (plan.ts) are the only ones a tool gets. A probe a framework does not understand may RUN
 * the program (clap's `COMPLETE=fish` without clap_complete's dynamic support does), so nothing is
 * sent on a guess.
 *
 * `score` orders several matches (a Go program links `flag` through its dependencies even when its
 * command line is cobra's): the highest-scoring match decides the command-line dialect; the others
 * are kept for the report.
 */

/** The frameworks the probes know. */
export type ProbeFramework = 'cobra' | 'urfave' | 'kong' | 'goflag' | 'clap' | 'click' | 'argparse' | 'yargs' | 'commander' | 'argmatch';

export interface FrameworkSignature {
  framework: ProbeFramework;
  /** Any one of these sets, each complete, identifies the framework. */
  all: readonly (readonly string[])[];
  score: number;
  /** What the strings are, for the introspect README's table. */
  note: string;
}

export const FRAMEWORK_SIGNATURES: readonly FrameworkSignature[] = Object.freeze([
  // cobra's hidden completion command and its directive type (spf13/cobra completions.go)
  { framework: 'cobra', all: [['__complete', 'ShellCompDirective']], score: 100, note: 'cobra: hidden `__complete` command and ShellCompDirective' },
  // clap_complete's dynamic completion engine (opt-in: `CompleteEnv`)
  { framework: 'clap', all: [['_CLAP_COMPLETE_INDEX']], score: 95, note: 'clap_complete dynamic completion env (opt-in)' },
  // click's completion env protocol (`_<PROG>_COMPLETE=zsh_complete`); typer builds on click
  { framework: 'click', all: [['_COMPLETE', 'zsh_complete', 'COMP_WORDS', 'COMP_CWORD']], score: 90, note: 'click/typer: `_<PROG>_COMPLETE` env protocol' },
  // yargs' hidden completion flag
  { framework: 'yargs', all: [['--get-yargs-completions'], ['get-yargs-completions', 'yargs']], score: 90, note: 'yargs: `--get-yargs-completions`' },
  // kong's package path and its enum error
  { framework: 'kong', all: [['github.com/alecthomas/kong', 'must be one of']], score: 80, note: 'kong: package path and `must be one of`' },
  // urfave/cli: package path and its completion flag
  { framework: 'urfave', all: [['github.com/urfave/cli', 'generate-bash-completion'], ['github.com/urfave/cli', 'generate-shell-completion']], score: 80, note: 'urfave/cli: package path and completion flag' },
  // clap's error for a value outside a closed set (clap_builder error formatting)
  { framework: 'clap', all: [['possible values', 'clap_builder'], ['possible values', 'clap::']], score: 70, note: 'clap: `possible values` and the crate path' },
  // commander.js: the choices error
  { framework: 'commander', all: [['Allowed choices are', 'commander']], score: 60, note: 'commander: `Allowed choices are`' },
  // Python's argparse (every componentize-py build carries the stdlib; it is the dialect when nothing above is)
  { framework: 'argparse', all: [['invalid choice: %(value)r', 'ArgumentParser'], ['(choose from %s)', 'ArgumentParser']], score: 40, note: 'argparse: `invalid choice … (choose from …)`' },
  // GNU argmatch (coreutils, gnulib)
  { framework: 'argmatch', all: [['Valid arguments are:']], score: 30, note: 'GNU argmatch: `Valid arguments are:`' },
  // Go's standard flag package (also linked by programs whose command line is another library's)
  { framework: 'goflag', all: [['flag provided but not defined', 'flag needs an argument', 'invalid boolean value']], score: 20, note: 'Go flag: its parse errors' },
]);

