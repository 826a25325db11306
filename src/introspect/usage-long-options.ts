/**
 * minimist helps written by hand (doctoc) document most options only in the usage form: `doctoc
 * [mode] [--entryprefix prefix] [--notitle | --title title] [--all] [--syntax (md|mdx)] <path>`.
 * A bracket group of long spellings, each maybe followed by one value word, a `<value>` or a
 * parenthesized `(a|b)` set of values, names options: when a form names three or more that no entry
 * lists, they are added (a value word makes one take a value, a value set gives its choices).
 */
import type { CliOption } from './spec.ts';
import type { OptionClaims } from './reader/claims.ts';

/**
 * `[--a x | --b]`: a bracket group holding only long spellings, joined by `|` (live-server `[-q|--quiet]`:
 * the first maybe after its short spelling).
 */
const LONG_GROUP = /\[\s*((?:-[A-Za-z0-9]\|)?--[A-Za-z0-9][^\[\]]{0,120}?)\s*\]/g;
/**
 * `--title title`, `--maxlevel <level>`, `--syntax (md|mdx)`, `--all`: one spelling and at most one value
 * (live-server `--port=PORT`, `--mount=ROUTE:PATH`: a value word in capitals after `=`; patchelf
 * `--set-rpath RPATH`, `--replace-needed LIBRARY NEW_LIBRARY`: one or two after a space, two a value each).
 * Round 18: docopt's angle brackets may hold words (`--canid=<canid address>`) or the values set
 * apart by `|` (`--type=<host|ns|mx>`: its choices, like `(md|mdx)`).
 */
const ALTERNATIVE = /^--([A-Za-z0-9][\w-]{0,40})(?:[ =](?:([a-z][\w-]{0,30})|<([A-Za-z][\w -]{0,30})>|[({<]([a-z0-9][\w.-]{0,20}(?:\|[a-z0-9][\w.-]{0,20})+)[)}>])|=([A-Z][A-Z0-9_]{0,30}(?::[A-Z][A-Z0-9_]{0,30})?)| ([A-Z][A-Z0-9_]{0,30})(?: ([A-Z][A-Z0-9_]{0,30}))?)?$/;

function known(options: readonly CliOption[], name: string): boolean {
  return options.some((option) => option.long === name || option.aliases.includes(`--${name}`) || option.negation === `--${name}`);
}

/** Spellings that are no option of the program's own: help and version, and placeholders for options (`[--flags]`, invoke `[--core-opts]`). */
const NOT_AN_OPTION = /^(?:help|version|(?:[\w-]+-)?(?:opts|options|flags|args))$/i;

/** At least this many unlisted options in one form: a stray unlisted spelling (git's `[--allow-empty]`) is no usage-only documentation. */
const MIN_UNLISTED = 3;

export function addUsageLongOptions(options: CliOption[], usageForms: readonly string[], emit: OptionClaims): void {
  // round 18: a name an earlier form added is still unlisted by the entries, so it counts toward
  // this form's MIN_UNLISTED (docopt hellfire: each mode's form repeats the shared options)
  const entries = [...options];
  for (const form of usageForms) {
    const added: CliOption[] = [];
    const repeated = new Set<string>();
    for (const group of form.matchAll(LONG_GROUP)) {
      const short = /^-([A-Za-z0-9])\|/.exec(group[1] ?? '')?.[1] ?? null;
      const alternatives = (group[1] ?? '').replace(/^-[A-Za-z0-9]\|/, '').split(/\s*\|\s*(?=--)/).map((alternative) => ALTERNATIVE.exec(alternative.trim()));
      if (alternatives.some((alternative) => alternative === null)) continue;
      for (const [index, alternative] of alternatives.entries()) {
        const name = alternative?.[1];
        if (name !== undefined && known(options, name) && !known(entries, name)) repeated.add(name);
        if (name === undefined || NOT_AN_OPTION.test(name) || known(options, name) || added.some((option) => option.long === name)) continue;
        const choices = alternative?.[4]?.split('|') ?? null;
        const valueName = alternative?.[2] ?? alternative?.[3] ?? alternative?.[5] ?? alternative?.[6] ?? null;
        const secondValue = alternative?.[7] !== undefined;
        const takes = valueName !== null || choices !== null;
        const letter = index === 0 && short !== null && !options.some((option) => option.short === short) ? short : null;
        added.push({
          long: name, short: letter, aliases: [], takes_value: takes, value_name: valueName, type: takes ? 'string' : 'boolean', default: null,
          choices, repeatable: false, required: false, negation: null, description: null,
          ...(secondValue ? { value_count: 2 } : {}),
        });
      }
    }
    if (added.length + repeated.size >= MIN_UNLISTED) options.push(...added.map((option) => emit.exists(option)));
  }
}
