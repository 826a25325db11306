/**
 * An option listed without a placeholder that the help itself writes with a value attached
 * elsewhere: licensecheck lists `--shortname-scheme` alone on its line, and another option's
 * description says it `implies --copyright and --shortname-scheme=debian,spdx`. `--name=value` is
 * only ever written for an option that takes a value. Mentions in the option's own description
 * (esbuild `--watch … use "--watch=forever"`) and in option heads name an optional or literal value.
 */
import type { CliOption } from './spec.ts';
import type { Claimer } from './reader/claims.ts';
import { claimTakesValue } from './reader/option-claims.ts';

const MAX_LINES = 4000;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A switch: its value is on or off, never a word (`--x=false` is pflag's way of turning it off). */
function isSwitch(option: CliOption): boolean {
  return option.negation !== null || (option.long ?? '').startsWith('no-') || typeof option.default === 'boolean' || option.repeatable;
}

/** Marks the flags the help writes as `--name=value` somewhere as value-taking (in place). */
export function applyAttachedValueMentions(options: CliOption[], lines: readonly string[], claim: Claimer): void {
  const candidates = options.filter((option) => !option.takes_value && option.long !== null && option.long.length > 1 && !isSwitch(option));
  if (candidates.length === 0) return;
  // option heads (`-C, --check=quiet`) spell literal values of their own; prose lines only
  const text = lines.slice(0, MAX_LINES).filter((line) => !/^\s*-/.test(line)).join('\n');
  for (const option of candidates) {
    const dashes = option.prefix ?? '--';
    // a value word after `=`, not a boolean (`--x=false` turns a switch off)
    const mention = new RegExp(String.raw`(?:^|[\s(\`'"])${escaped(`${dashes}${option.long ?? ''}`)}=(?!(?:true|false)\b)[\w./:@-]`, 'm');
    // esbuild `--watch  … use "--watch=forever" to ignore stdin`: its own description names an optional value
    if (!mention.test(text) || mention.test(option.description ?? '')) continue;
    claimTakesValue(claim, option);
  }
}

/**
 * pry (slop) `--gem  Shorthand for -I./lib -rgemname`: another option's description writes a short
 * spelling with its value glued on. What follows the letter is a value when it cannot be a cluster
 * of listed one-letter flags: it holds a character no flag letter is (`./lib`), or a letter that
 * names no listed option (`gemname`: no `-g`).
 */
export function applyGluedShortMentions(options: CliOption[], claim: Claimer): void {
  const letters = new Set(options.flatMap((option) => (option.short === null ? [] : [option.short])));
  for (const option of options) {
    if (option.takes_value || option.short === null || isSwitch(option)) continue;
    const mention = new RegExp(String.raw`(?:^|[\s(\`])-${escaped(option.short)}([\w./~:@-]{2,60})(?=[\s)\`,;]|\.?$)`, 'g');
    const glued = options
      .filter((other) => other !== option && other.description !== null)
      .flatMap((other) => [...(other.description ?? '').matchAll(mention)].map((match) => match[1] ?? ''))
      // click sqlfluff `cannot be used together with -v/--verbose`: a slash joins the option's other spelling, no value
      .filter((value) => !/^\/-{1,2}[A-Za-z]/.test(value));
    if (!glued.some((value) => /[^A-Za-z0-9]/.test(value) || [...value].some((letter) => !letters.has(letter)))) continue;
    claimTakesValue(claim, option);
  }
}

/**
 * Pod::Usage xml_grep `--by_file` over `output only <nb> results by file`: a bare option whose
 * description counts or names things by a placeholder the help's heads use for values (`--nb_results
 * <nb>`), and not after another spelling (`same as --wrap <tag>`), takes that value.
 */
export function applyDescribedPlaceholders(options: CliOption[], claim: Claimer): void {
  const placeholders = new Set(options.flatMap((option) => (option.takes_value && option.value_name !== null ? [option.value_name] : [])));
  if (placeholders.size === 0) return;
  for (const option of options) {
    if (option.takes_value || isSwitch(option) || option.description === null) continue;
    if (/--?[A-Za-z][\w-]*[ =]<[a-z]/i.test(option.description)) continue;
    const named = /(?:^|\s)(?:only|all|each|every|the|up to|at most)\s+<([a-z][\w-]{0,30})>\s+[a-z]/i.exec(option.description)?.[1];
    if (named === undefined || !placeholders.has(named)) continue;
    claimTakesValue(claim, option, { valueName: named });
  }
}
