/**
 * `parseHelp`: turns the help text of a CLI program into a `CliSpec`. One style-tolerant,
 * line-oriented parser covers GNU getopt/argp, argparse/optparse, click/typer, clap, cobra/pflag,
 * commander/yargs/cac, optionator, docopt and hand-written help; Go's `flag` output is recognized
 * separately (see go-flag.ts). It never throws and is linear in the (capped) input.
 *
 * Passes: Go flag extraction → line scan (help-scan.ts) → options (option-entry.ts) → usage forms
 * (usage.ts) → required options → subcommands and positionals (positional-entry.ts) →
 * description → program name → tsc-style value-taking (flush-left-types.ts) → value-taking from
 * descriptions in a help that shows no placeholder at all (description-values.ts).
 */
import { dropDefaultsNamingArguments, dropDefaultsNamingOptions } from './argument-defaults.ts';
import { applyDefaultsSection } from './defaults-section.ts';
import { applyBareListedChoices, applyDescriptionValueTaking, applyListFormValueTaking, isBareHelp } from './description-values.ts';
import { applyFlushLeftTypes } from './flush-left-types.ts';
import { dropGluedValueSpellings } from './glued-values.ts';
import { applyFlagValueLists } from './flag-value-lists.ts';
import { collapseNumberedPositionals, markPositionalsProseLetOut } from './numbered-positionals.ts';
import { markPositionalsDefaultedInEntry, markPositionalsDefaultedInProse } from './defaulted-positionals.ts';
import { applyShortcutDefaults, readValueShortcutLines } from './value-shortcut-lines.ts';
import { applyPairedPlaceholderSpellings } from './paired-literal-spelling.ts';
import { applyOverflowingValueNames } from './overflowing-value.ts';
import { applyAppendedMetavars } from './appended-metavar.ts';
import { manNamePath, withManNamePath } from './man-name-path.ts';
import { applyLegendDefaults } from './legend-defaults.ts';
import { addUsageModeOptions } from './usage-mode-options.ts';
import { usageBareFlags } from './usage-bare-flags.ts';
import { addExampleOnlyFlags, addUsageOnlyOptions, addUsageSpelledValueOptions, applyUsageValueWords } from './usage-only-options.ts';
import { applyGroupedUsageValues } from './usage-group-values.ts';
import { splitGoFlagSpellings, splitRespectiveSpellings } from './respective-spellings.ts';
import { extractGoFlags, goUsageLineIndex, goUsageTitle } from './dialects/goflag.ts';
import { looksHandLaidOut } from './hand-layout.ts';
import { applyHandWrittenValues } from './hand-written-values.ts';
import { applyStatedValueDefaults } from './stated-value-defaults.ts';
import { evidenceDefaultClaims } from './evidence-defaults.ts';
import { scanHelpLines, type HelpScan, type UnparsedLine } from './help-scan.ts';
import { helpSummary } from './help-summary.ts';
import { applyValueForms } from './value-forms.ts';
import { applySingleDashNames } from './single-dash-names.ts';
import { expandTabs, helpLines } from './limits.ts';
import { applyTitledValueLists } from './titled-value-lists.ts';
import { applyTitledPipeLists } from './titled-pipe-lists.ts';
import { addUsageLongOptions } from './usage-long-options.ts';
import { withoutOptionSetPlaceholders } from './option-set-placeholder.ts';
import { applyEpilogValueLists, collectOptions, optionFromEntry, type OptionStyle } from './option-entry.ts';
import { applyUsageFlagClusters, splitSiblingShorts } from './short-flag-clusters.ts';
import { applyAttachedValueMentions, applyDescribedPlaceholders, applyGluedShortMentions } from './attached-value-mentions.ts';
import { leadingPlaceholderPositionals } from './leading-placeholder.ts';
import { placeholdersOpenDescriptions } from './opening-placeholders.ts';
import { collectPositionals, collectSubcommands, commandPrefixOf, markMultiWordPositionals, markPluralPositionals, splitProseNamedPositionals, withPassThroughPositional } from './positional-entry.ts';
import type { CliOption, CliPositional, CliSpec, FieldSources } from './spec.ts';
import { markOptionalListedPositionals, withoutOptionalMarker } from './optional-positionals.ts';
import { parseUsageForm, programBaseName, type UsageForm, type UsagePositional } from './usage.ts';
import { typeFromValueName } from './value-type.ts';
import { sanitizeToolName } from '../tool-name.ts';
import { evidenceChoices } from './evidence-choices.ts';
import { applyMarkedDefaultBarLists } from './marked-default-bar-list.ts';
import { evidencePositionalClaims } from './evidence-positionals.ts';
import { valueSeparatorOf } from './value-list.ts';
import { ClaimLedger, helpSource, setSources, WEIGHT } from './reader/claims.ts';
import { DIALECT_READERS, dialectLayout, placeholdersByHand, relayout, tagsEveryType, type DialectContext } from './dialects/index.ts';
import { fingerprintHelp } from './reader/fingerprint.ts';
import { backquotedCommandPath } from './backquoted-command.ts';

export interface ParseHelpOptions {
  /** The component's file name, the last resort for the tool name. */
  fileName?: string;
}

export interface HelpParseReport {
  spec: CliSpec;
  /** Lines in options sections that were read as neither an option nor its description. */
  unparsed: UnparsedLine[];
}

const MAX_USAGE_FORMS = 20;
/**
 * The program and, when every usage form names the same subcommand path, that path (`git clone`).
 * `oclif generate NAME` has a placeholder after `generate`, but its commands section lists
 * `generate command`, `generate hook`: that shared first word is the path too.
 */
function programNameOf(forms: readonly UsageForm[], program: string, commandPrefix: string | null): string {
  const withProgram = forms.filter((form) => form.program !== null);
  const first = withProgram[0];
  const listedPath = commandPrefix !== null && first !== undefined && first.commandPath.length === 0 && first.leadingLiterals[0] === commandPrefix ? [commandPrefix] : [];
  const path = first !== undefined && first.commandPath.length > 0 ? first.commandPath : listedPath;
  // `git describe <blob>` has no command path of its own (a placeholder follows), but starts with it
  const agrees = (form: UsageForm): boolean =>
    form.commandPath.join(' ') === path.join(' ') || (form.commandPath.length === 0 && form.leadingLiterals.slice(0, path.length).join(' ') === path.join(' '));
  const agreed = path.length > 0 && withProgram.every(agrees);
  return agreed ? [programBaseName(program), ...path].join(' ') : programBaseName(program);
}

/** A word of a synopsis line that names a value: `FILTER`, `[FILES...]`, `<path>`, `[-o FILE]`, `[OPTIONS]`. */
const SYNOPSIS_WORD = /^(\[[^\]]*\]|<[^>]+>|[A-Z][A-Z0-9_]*|-{1,2}[\w-]+(=\S+)?|\|)(\.{2,3})?$/;

/**
 * `Usage: gojq [OPTIONS]` + `Synopsis:  gojq [OPTIONS] FILTER [FILES...]`: positionals from the first
 * synopsis or example line that invokes the program with placeholders only (an example with real
 * values, `gojq '.foo' data.json`, names nothing and is skipped).
 */
function synopsisPositionals(lines: readonly string[], program: string, takesValue: (flag: string) => boolean): UsageForm['positionals'] {
  const base = programBaseName(program);
  for (const raw of lines) {
    const line = raw.replace(/^[$%>]\s+/, '');
    const words = line.split(/\s+/);
    if (programBaseName(words[0] ?? '') !== base) continue;
    // brackets with spaces inside are split apart by the whitespace split: rejoin on the raw text
    const rest = line.slice((words[0] ?? '').length).trim();
    const tokens = rest.match(/\[[^\]]*\](?:\.{2,3})?|<[^>]+>(?:\.{2,3})?|\S+/g) ?? [];
    if (tokens.length === 0 || !tokens.every((token) => SYNOPSIS_WORD.test(token))) continue;
    const positionals = parseUsageForm(line, takesValue).positionals;
    if (positionals.length > 0) return positionals;
  }
  return [];
}

/**
 * A query that prints a listing and exits, like `--help`: num2words `num2words --list-languages` beside
 * `num2words [options] <number>` is no run without the number.
 */
const LISTING_QUERY = /(^|[\s[(|])--list(?:-[a-z][\w-]{0,30})?(?=[\s\])|]|$)/g;

/** A usage form that gives an option besides help and version (`prog --version`, `prog [OPTION]` do not count). */
function formRuns(text: string): boolean {
  const rest = text
    .replace(/^\S+/, '')
    // (killall `-l, --list`, `-V, --version`: a short spelling paired by a comma with a long one is that option; the long one decides)
    .replace(/(^|\s)-[A-Za-z0-9],\s{0,4}(?=--[a-z])/g, '$1')
    .replace(LISTING_QUERY, ' ')
    .replace(/--help\b|--version\b|(^|[\s[(|])-[hV](?=[\s\])|]|$)/g, ' ')
    .replace(/\b(OPTIONS?|options?|flags?)\b/g, ' ');
  return /-[A-Za-z0-9]/.test(rest);
}

/**
 * rougify `usage: rougify highlight <filename> [options...]` / `rougify highlight [options...]`: a
 * later form writing only the options placeholder in brackets runs with options alone.
 */
const OPTIONS_ONLY_FORM = /^\S+(?:\s+[a-z][\w-]*)*\s+\[(?:options|OPTIONS|flags)(?:\.{3})?\]\s*$/;

/**
 * goose `Usage: goose [OPTIONS] DRIVER DBSTRING COMMAND` / `Usage: goose [OPTIONS] COMMAND`: a form
 * whose only arguments are required command placeholders runs that command without the first form's
 * others (cobra's optional `vhs [command]` beside `vhs <file>` names the help's commands, no other mode).
 */
function runsCommand(form: UsageForm): boolean {
  return form.positionals.length > 0 && form.positionals.every((positional) => positional.required && COMMAND_PLACEHOLDER.test(positional.name));
}

/** `$ prog [--help | -h | --version | -v]`, `prog --version`: a usage form of nothing but help and version spellings. */
function asksOnlyHelpOrVersion(text: string): boolean {
  const rest = text.trim().replace(/^[$%>]\s+/, '').replace(/^\S+/, '');
  return /-/.test(rest) && /^[\s[\]()|]*$/.test(rest.replace(/--help\b|--version\b|(^|[\s[(|])-[hVv](?=[\s\])|]|$)/g, ' '));
}

/** Whether a form of the program with no positionals does more than ask for help or the version (licensecheck `[ --list-licenses | … ]`). */
function runsWithoutPositionals(first: UsageForm, forms: readonly UsageForm[], texts: readonly string[]): boolean {
  return forms.some((form, index) => form.program === first.program && form.commandPath.join(' ') === first.commandPath.join(' ') && form.positionals.length === 0 && !asksOnlyHelpOrVersion(texts[index] ?? ''));
}

/**
 * docopt prints several forms: a positional the first form requires is optional when another form
 * of the same command runs with options only (`prog [options] PATH...` and
 * `prog (--doctest | --testsuite=DIR)`).
 */
function optionalWhereAnotherFormRunsWithout(positionals: UsageForm['positionals'], first: UsageForm, texts: readonly string[], forms: readonly UsageForm[]): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  // only a form with options and no positionals of its own (`(--doctest | --testsuite=DIR)`)
  const others = forms.filter(
    (form, index) => form !== first && form.program === first.program && form.commandPath.join(' ') === path && ((form.positionals.length === 0 && !givesStdinDash(texts[index] ?? '') && (formRuns(texts[index] ?? '') || OPTIONS_ONLY_FORM.test(texts[index] ?? ''))) || runsCommand(form)),
  );
  const shorter = formsEndingEarlier(positionals, first, texts, forms);
  return positionals.map((positional, index) =>
    positional.required && (others.some((form) => !form.positionals.some((other) => other.name === positional.name)) || index >= shorter) ? { ...positional, required: false } : positional,
  );
}

/** A word of a usage form that stands for standard input in an argument's place (`prog - <out>`). */
const STDIN_DASH = /(?:^|\s)-(?=\s|$)/;

/** Whether a form writes a lone `-` after the program (standard input in the first argument's place). */
function givesStdinDash(text: string): boolean {
  return STDIN_DASH.test(text.trim().replace(/^[$%>]\s+/, '').replace(/^\S+/, ''));
}

/**
 * resvg `resvg [OPTIONS] <in-svg> <out-png>` / `resvg [OPTIONS] <in-svg> -c` / `resvg [OPTIONS] - <out-png>` /
 * `resvg [OPTIONS] - -c`: a lone `-` fills the first argument's slot (standard input); a form of the
 * same command that writes the first form's arguments only up to some point and gives an option
 * instead of the rest (`-c`: to stdout) leaves the rest out. Returns the index from which the first
 * form's arguments may be left out (their count when none may).
 */
function formsEndingEarlier(positionals: UsageForm['positionals'], first: UsageForm, texts: readonly string[], forms: readonly UsageForm[]): number {
  const path = first.commandPath.join(' ');
  let from = positionals.length;
  forms.forEach((form, index) => {
    const text = texts[index] ?? '';
    if (form === first || form.program !== first.program || form.commandPath.join(' ') !== path || !formRuns(text)) return;
    // (each written alike: GNU ln's `-t DIRECTORY TARGET...` repeats TARGET, another shape than the first form's one TARGET)
    const written = [...(givesStdinDash(text) ? [positionals[0]] : []), ...form.positionals].map((positional) => `${positional?.name ?? ''}${positional?.variadic === true ? '...' : ''}`);
    if (written.length === 0 || written.length >= positionals.length || !written.every((name, at) => `${positionals[at]?.name ?? ''}${positionals[at]?.variadic === true ? '...' : ''}` === name)) return;
    from = Math.min(from, written.length);
  });
  return from;
}

/** Whether `longer` ends with the positionals of `tail`, by name and in order. */
function endsWithAll(longer: UsageForm['positionals'], tail: UsageForm['positionals']): boolean {
  const offset = longer.length - tail.length;
  return offset >= 0 && tail.every((positional, index) => longer[offset + index]?.name === positional.name);
}

/**
 * GNU od: `od [OPTION]... [FILE]...` / `or: od … [FILE] [[+]OFFSET[.][b]]` / `or: od --traditional
 * … [FILE] [[+]OFFSET[.][b] [+][LABEL][.][b]]`: a later form of the same command that starts with
 * the first form's positionals and goes on with optional ones adds those, optional.
 */
function extendedByOtherForms(positionals: UsageForm['positionals'], first: UsageForm, forms: readonly UsageForm[], emptyFormRuns = true): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  if (positionals.length === 0) {
    // util-linux findmnt: `findmnt [options]` then `findmnt [options] <device> <mountpoint>`: the first
    // form runs without any, so the most a later form of the same command shows are all optional
    // serve `$ serve folder_name` beside `$ serve [-l listen_uri] [directory]`: a form whose only
    // positionals are bare lower-case words right after the program may be an example with a literal
    // value; the forms that write theirs as placeholders decide
    const literalOnly = (form: UsageForm): boolean => form.positionals.length > 0 && form.positionals.every((positional) => form.leadingLiterals.includes(positional.name));
    const fullest = forms
      .filter((form) => form !== first && form.program === first.program && form.commandPath.join(' ') === path && !literalOnly(form))
      .reduce<UsageForm | null>((best, form) => (form.positionals.length > (best?.positionals.length ?? 0) ? form : best), null);
    if (fullest === null) return positionals;
    // …when the forms agree (git branch's forms are modes, each with positionals of its own: none then)
    const names = fullest.positionals.map((positional) => positional.name);
    const agrees = (form: UsageForm): boolean =>
      form.program !== first.program || literalOnly(form) || form.positionals.every((positional) => positional.name.split('|').every((name) => names.includes(name)));
    // (npm-run-all `run-p [--help | -h | --version | -v]` then `run-p [OPTIONS] <tasks>`: a form that
    // only asks for help or the version runs nothing, so when no other form goes without positionals
    // the later form says what is required)
    return forms.every(agrees) ? fullest.positionals.map((positional) => ({ ...positional, required: emptyFormRuns ? false : positional.required })) : positionals;
  }
  const result = [...positionals];
  for (const form of forms) {
    if (form === first || form.program !== first.program || form.commandPath.join(' ') !== path) continue;
    // the form repeats the positionals found so far, in order, then goes on with optional ones (jq's
    // `--args <jq filter> [strings...]` puts another in the place of `[file...]`: an alternative)
    const shared = Math.min(form.positionals.length, result.length);
    // gocryptfs `-init|-passwd|-info [OPTIONS] CIPHERDIR` / `or gocryptfs [OPTIONS] CIPHERDIR MOUNTPOINT`:
    // when the first form is a mode its required options select, one the later (plain) form requires
    // is optional too, since the first form runs without it (cp's `SOURCE DEST DIRECTORY` adds nothing)
    const firstIsMode = first.requiredOptions.length > 0 && form.requiredOptions.length === 0;
    if (firstIsMode && result.length === positionals.length && shared > 0 && form.positionals.length > shared && endsWithAll(form.positionals, result)) {
      // gawk `-f progfile [--] file ...` / `[--] 'program' file ...`: the plain form puts in front what
      // the mode's option stands for (the program text): optional, before the first form's positionals
      result.unshift(...form.positionals.slice(0, form.positionals.length - shared).map((positional) => ({ ...positional, required: false })));
      continue;
    }
    if (shared === 0 || form.positionals.slice(0, shared).some((positional, index) => positional.name !== result[index]?.name)) continue;
    for (const positional of form.positionals.slice(shared)) {
      if (positional.required && !firstIsMode) break;
      result.push({ ...positional, required: false });
    }
  }
  return result;
}

/**
 * postcss `postcss [input.css] [OPTIONS] …` then `postcss <input.css>... [OPTIONS] --dir <dir>`: a
 * positional another form of the same command writes repeated (`...`) under the same name is
 * variadic when the first form leaves it optional (GNU ln `TARGET` then `TARGET... DIRECTORY` are modes);
 * whether it is required stays the first form's.
 */
function variadicInOtherForms(positionals: UsageForm['positionals'], first: UsageForm, forms: readonly UsageForm[]): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  const same = forms.filter((form) => form !== first && form.program === first.program && form.commandPath.join(' ') === path);
  return positionals.map((positional) =>
    !positional.variadic && !positional.required && same.some((form) => form.positionals.some((other) => other.variadic && other.name === positional.name)) ? { ...positional, variadic: true } : positional,
  );
}

/**
 * docopt cheat `cheat <cheatsheet>` / `cheat -s <keyword>` with `-s --search` listed as a flag: a form
 * of the same command whose placeholder follows a listed flag (so it is no value of it) names an argument
 * of that mode; the first form leaves it out, so it is optional. (A placeholder after an option taking a
 * value is that option's, and the form's parse already leaves it out.)
 */
function argumentsOfFlagModes(positionals: UsageForm['positionals'], first: UsageForm, forms: readonly UsageForm[], texts: readonly string[], isFlag: (spelling: string) => boolean): UsageForm['positionals'] {
  const path = first.commandPath.join(' ');
  const added: UsageForm['positionals'] = [];
  forms.forEach((form, index) => {
    if (form === first || form.program !== first.program || form.commandPath.join(' ') !== path) return;
    const words = (texts[index] ?? '').trim().split(/\s+/).slice(0, 40);
    for (const positional of form.positionals) {
      if (positionals.some((other) => other.name === positional.name) || added.some((other) => other.name === positional.name)) continue;
      const at = words.findIndex((word) => word === `<${positional.name}>`);
      const before = words[at - 1] ?? '';
      if (at > 0 && /^-{1,2}[A-Za-z0-9][\w-]{0,40}$/.test(before) && isFlag(before)) added.push({ ...positional, required: false });
    }
  });
  return added.length === 0 ? positionals : [...positionals, ...added];
}

const COMMAND_PLACEHOLDER = /^(command|cmd|subcommand)$/i;

/**
 * lz4 `lz4 [arg] [input] [output]` over `Arguments :` titling its options (`-1  : Fast compression`):
 * a help that calls its options arguments writes `[arg]` for them, not for a positional.
 */
function optionsCalledArguments(lines: readonly string[]): boolean {
  // (templ `Args:` over `-path <path>` …: the short title too)
  const title = lines.findIndex((line) => /^\s*(?:args?|arguments)\s*:\s*$/i.test(line));
  if (title === -1) return false;
  const next = lines.slice(title + 1).find((line) => line.trim().length > 0) ?? '';
  return /^\s*-{1,2}[A-Za-z0-9#]/.test(next);
}

const ARGUMENTS_PLACEHOLDER = /^(?:arg|args|arguments?)$/i;

/** Options written outside brackets in every usage form are required. */
function markRequiredOptions(options: CliOption[], forms: readonly UsageForm[]): void {
  if (forms.length === 0) return;
  for (const option of options) {
    const spellings = [option.long !== null ? `${option.prefix ?? '--'}${option.long}` : null, option.short !== null ? `-${option.short}` : null];
    if (forms.every((form) => form.requiredOptions.some((spelling) => spellings.includes(spelling)))) option.required = true;
  }
}


/**
 * ffuf's examples: `ffuf -w wordlist.txt -u https://…` twice or more under `EXAMPLE USAGE:`: the
 * lower-case word that starts example lines and is followed by an option, when one word does so at
 * least twice and no other does.
 */
function exampleProgramWord(synopsisLines: readonly string[]): string | null {
  const words = synopsisLines.map((line) => /^([a-z][\w.-]{0,63}) -{1,2}[A-Za-z]/.exec(line.replace(/^[$%>]\s+/, ''))?.[1]).filter((word): word is string => word !== undefined);
  const distinct = new Set(words);
  return words.length >= 2 && distinct.size === 1 ? (words[0] ?? null) : null;
}

function fallbackProgramName(lines: readonly string[], fileName: string | undefined, synopsisLines: readonly string[] = []): string | null {
  const firstLine = lines.find((line) => line.trim().length > 0)?.trim() ?? '';
  // (not the title of a form naming no program: bpaf `Usage: [-c=<./.oxlintrc.json>] [PATH]...`)
  // (nor a section's title: Pod::Usage xml_grep and yargs mjml open with `Options:`; the file names the program then)
  // (nodemon opens with `Configuration` over indented option lines: a one-word title of its own too)
  const firstIndex = lines.findIndex((line) => line.trim().length > 0);
  const titleOverOptions = /^[A-Z][a-z]{2,30}$/.test(firstLine) && /^\s+-/.test(lines[firstIndex + 1] ?? '');
  const sectionTitle = /^(?:options|arguments|flags|switches|parameters|commands)\s*:?$/i.test(firstLine) || titleOverOptions;
  // (license-checker opens with `license-checker@25.0.1`: a package name with its version names the program)
  // (0x opens with `0x 6.0.0`: a name opening with digits, then its version or nothing, names it too)
  const firstWord = /^usage:/i.test(firstLine) || sectionTitle ? undefined : (/^([A-Za-z][\w.-]{0,63})(?=[\s:]|@v?\d+\.\d|$)/.exec(firstLine) ?? /^(\d{1,4}[A-Za-z][\w.-]{0,60})(?=\s+v?\d+\.\d+(?:\.\d+)?$|@v?\d+\.\d|$)/.exec(firstLine))?.[1];
  // `Fuzz Faster U Fool - v1.1.0`: a title in capitals over examples invoking `ffuf`: the examples name the program
  const example = firstWord !== undefined && /^[A-Z][a-z]/.test(firstWord) ? exampleProgramWord(synopsisLines) : null;
  if (example !== null) return example;
  if (firstWord !== undefined) return programBaseName(firstWord);
  return fileName ? programBaseName(fileName) : null;
}

/**
 * OptionParser (rake) opens with its form and no `Usage:` title: `rake [-f rakefile] {options}
 * targets...`. A first line flush left of a program word and then only bracket groups and names,
 * one of them an option group, is the usage form.
 */
/** A line drawn of dashes, equals signs or underscores (maybe spaced): a rule, no text. */
const RULE_LINE = /^\s*(?:[-=_*] ?){3,}\s*$/;

function headlineForm(lines: readonly string[]): string | null {
  // (certbot opens with a rule of dashes, then its form indented: `  certbot [SUBCOMMAND] [options] [-d DOMAIN] ...`)
  const first = (lines.find((line) => line.trim().length > 0 && !RULE_LINE.test(line)) ?? '').trim();
  const form = /^[a-z][\w.-]{0,40}((?:\s+(?:\[[^[\]]{1,80}\]|\{[^{}]{1,40}\}|<[^<>]{1,40}>|[A-Za-z][\w-]{0,40}(?:\.{3})?|\.{3})){1,20})\s*$/.exec(first);
  // …and no English function word outside the brackets (`tail pods and containers [-x] from k8s` is prose)
  const outside = (form?.[1] ?? '').replace(/\[[^[\]]*\]|\{[^{}]*\}|<[^<>]*>/g, ' ');
  if (/(^|\s)(and|or|the|an?|to|from|of|for|with|by|in|on|is|are|this|that)(\s|$)/i.test(outside)) return null;
  return form !== null && /\[-/.test(form[1] ?? '') ? first.trim() : null;
}

function parseHelpUnsafe(text: string, parseOptions: ParseHelpOptions | undefined): HelpParseReport {
  const rawLines = relayout(helpLines(text));
  const fingerprint = fingerprintHelp(rawLines);
  const { traits } = fingerprint;
  const ledger = new ClaimLedger();
  const go = traits.goFlag ? extractGoFlags(rawLines) : { options: [], consumed: new Set<number>() };
  ledger.trace(helpSource('goflag', 'flag-line'), [], () => go.options);
  const lines = rawLines.map((line, index) => (go.consumed.has(index) ? '' : expandTabs(line)));
  // Go's `Usage of NAME:` title (dialects/goflag.ts), maybe under a headline and a blank line (cfssl)
  const goUsageLine = goUsageLineIndex(rawLines);
  const goUsage = goUsageTitle(rawLines[goUsageLine] ?? '');
  const scan: HelpScan = scanHelpLines(lines, (index) => go.consumed.has(index) || (index === goUsageLine && goUsage !== null), goUsage !== null ? goUsageLine : null);
  applyOverflowingValueNames(scan.entries, scan.usageForms);
  applySingleDashNames(scan.entries);
  applyAppendedMetavars(scan.entries);
  applyPairedPlaceholderSpellings(scan.entries);
  // each dialect's lines of its own notation, taken out of the entries before options are read
  const kept = new Map<string, unknown>();
  for (const reader of DIALECT_READERS) if (reader.entries !== undefined) kept.set(reader.id, reader.entries(scan.entries));
  const shortcutValues = readValueShortcutLines(scan.entries);

  const style: OptionStyle = {
    defaultInPlaceholder: traits.defaultInPlaceholder,
    bracketedBoolDefaults: traits.bracketedBoolDefaults,
    colonDefaults: traits.colonDefaults,
    usageBareFlags: usageBareFlags(scan.usageForms),
    untaggedTakesValue: tagsEveryType(rawLines),
    reader: fingerprint.framework,
    listedNegations: new Set(scan.entries.flatMap((entry) => entry.option?.longs.map((long) => long.name).filter((name) => name.startsWith('no-')).map((name) => name.slice(3)) ?? [])),
  };
  // a boolean type printed for `--help` (`--help -h <bool>`) is printed for every flag; `--help [topic]` is a value
  const helpPlaceholder = scan.entries.find((entry) => entry.option?.longs.some((long) => long.name === 'help'))?.option?.valueName ?? null;
  if (helpPlaceholder !== null && typeFromValueName(helpPlaceholder) === 'boolean') style.flagPlaceholder = helpPlaceholder;
  // a dialect printing the command's long description (with option lines quoted from other commands'
  // docs) before `Usage:` and its flags after it (cobra): option lines above the usage are prose there
  const layout = dialectLayout(rawLines);
  const proseOptions = layout.proseAboveUsage && scan.entries.some((entry) => entry.kind === 'option' && entry.afterUsage === true);
  const buildOptions = (): CliOption[] => {
    const built = ledger.trace(helpSource(fingerprint.framework, 'option-entry'), [...go.options], () => {
      const parsed: CliOption[] = [...go.options];
      for (const entry of scan.entries) {
        const option = entry.kind === 'option' && !(proseOptions && entry.afterUsage !== true) ? optionFromEntry(entry, style) : null;
        if (option !== null) {
          parsed.push(...splitSiblingShorts(entry, option).flatMap((one) => splitRespectiveSpellings(entry, one)).flatMap((one) => splitGoFlagSpellings(one, goUsage !== null)));
        }
      }
      return dropGluedValueSpellings(collectOptions(parsed));
    });
    ledger.trace(helpSource('generic', 'epilog-value-list'), built, () => applyEpilogValueLists(built, scan.paragraphs));
    ledger.trace(helpSource('generic', 'titled-value-list'), built, () => applyTitledValueLists(built, scan.paragraphs, lines));
    ledger.trace(helpSource('generic', 'titled-pipe-list'), built, () => applyTitledPipeLists(built, lines));
    ledger.trace(helpSource('generic', 'flag-value-list'), built, () => applyFlagValueLists(built, scan.paragraphs));
    return built;
  };
  let options = buildOptions();
  const dialectContext: DialectContext = {
    lines: rawLines,
    entries: scan.entries,
    usageForms: scan.usageForms,
    program: null,
    subcommandCount: 0,
    parseForm: (form) => parseUsageForm(form, takesValue, helpFor).positionals,
    kept,
  };
  /** Runs the dialect readers of an option stage, in table order. */
  const runOptionReaders = (stage: 'bareHelp' | 'statedValues' | 'fallbackDefaults'): void => {
    for (const reader of DIALECT_READERS) {
      const hook = reader[stage];
      if (hook !== undefined) read(hook.rule, () => hook.read(options, dialectContext), reader.id);
    }
  };
  /** Runs an in-place reader over the options, its changes recorded as claims of `help:<reader>.<rule>`. */
  const read = (rule: string, run: () => unknown, reader = 'generic', weight: number = WEIGHT.generic): void => {
    options = ledger.trace(
      helpSource(reader, rule),
      options,
      () => {
        run();
      },
      weight,
    );
  };
  // sade prints no placeholders (`-p, --port   Port to bind  (default 8080)`): where no option shows
  // one, a stated default other than a boolean says the option takes a value
  const bare = go.options.length === 0 && style.untaggedTakesValue !== true && isBareHelp(options);
  if (bare) {
    style.statedDefaultTakesValue = true;
    options = buildOptions();
    runOptionReaders('bareHelp');
    read('bare-listed-choices', () => applyBareListedChoices(options));
  }

  // a dialect that never prints a placeholder of its own (meow): however few its options, a stated
  // default other than a boolean says a value is taken, as above
  const byHand = placeholdersByHand(rawLines);
  if (!bare && go.options.length === 0 && style.untaggedTakesValue !== true && byHand.statedDefaults) {
    style.statedDefaultTakesValue = true;
    options = buildOptions();
  }

  read('defaults-section', () => applyDefaultsSection(options, rawLines));
  read('value-shortcut-line', () => applyShortcutDefaults(options, shortcutValues));

  const takesValue = (flag: string): boolean => {
    const name = flag.replace(/^-+/, '');
    return options.find((option) => option.long === name || option.short === name)?.takes_value ?? false;
  };
  const helpFor = layout.commandName;
  const headline = scan.usageForms.length === 0 && !scan.seenUsage ? headlineForm(lines) : null;
  if (headline !== null) scan.usageForms.push(headline);
  const forms = withManNamePath(scan.usageForms.slice(0, MAX_USAGE_FORMS).map((form) => parseUsageForm(form, takesValue, helpFor)), manNamePath(rawLines));

  // a footnote list or an example giving a bare-listed option a value: the placeholders were written
  // by hand (meow, parseArgs), so stated defaults say a value is taken, as in a help without any
  let handWritten = false;
  if (go.options.length === 0 && style.untaggedTakesValue !== true) {
    const usageProgram = forms.find((form) => form.program !== null)?.program ?? null;
    const exampleProgram = usageProgram === null ? null : programBaseName(usageProgram);
    const commandWords = new Set(scan.entries.filter((entry) => entry.kind === 'command').flatMap((entry) => entry.head.split(/\s+/).slice(0, 2)));
    // sade `microbundle <command> [options]` over listed commands: the command placeholder is no
    // positional an example's word could fill (a listed command word is told apart below)
    // (commander `pino-pretty [options] [command]` over a `Commands:` list: the word after an option
    // is a listed command or the option's value)
    const positionalsTaken =
      forms.length === 0 || forms.some((form) => form.positionals.some((positional) => !(commandWords.size > 0 && COMMAND_PLACEHOLDER.test(positional.name))));
    // pkg `pkg [options] <input>`: the most positionals a form takes, when every form is bounded
    const bounded = forms.length > 0 && commandWords.size === 0 && forms.every((form) => form.commandPath.length === 0 && form.positionals.every((positional) => !positional.variadic));
    const maxPositionals = bounded ? Math.max(...forms.map((form) => form.positionals.length)) : null;
    let footnotes = false;
    read('hand-written-values', () => (footnotes = applyHandWrittenValues(options, rawLines, exampleProgram, positionalsTaken, commandWords, maxPositionals)));
    handWritten = footnotes || looksHandLaidOut(rawLines);
    if (handWritten && style.statedDefaultTakesValue !== true) {
      style.statedDefaultTakesValue = true;
      options = buildOptions();
      read('defaults-section', () => applyDefaultsSection(options, rawLines));
      read('value-shortcut-line', () => applyShortcutDefaults(options, shortcutValues));
      read('hand-written-values', () => applyHandWrittenValues(options, rawLines, exampleProgram, positionalsTaken, commandWords, maxPositionals));
    }
  }
  // mosquitto: values the usage forms give (`{-t topic | -L URL}`) are no placeholder the list shows
  const flagsBeforeUsage = new Set(options.filter((option) => !option.takes_value));
  const knownBeforeUsage = new Set(options);
  const usageForms = scan.usageForms.slice(0, MAX_USAGE_FORMS);
  read('usage-flag-cluster', () => applyUsageFlagClusters(options, usageForms, scan.entries));
  read('usage-line', () => {
    addUsageOnlyOptions(options, usageForms);
    addUsageSpelledValueOptions(options, usageForms);
    addUsageLongOptions(options, usageForms);
    addUsageModeOptions(options, usageForms);
    applyUsageValueWords(options, [...usageForms, ...DIALECT_READERS.flatMap((reader) => reader.usageLines?.(rawLines) ?? []).slice(0, MAX_USAGE_FORMS)]);
    // only where the list shows no placeholder (optparse cProfile `[-m module | scriptfile]` lists `-m` bare: a flag)
    if (bare) applyGroupedUsageValues(options, usageForms);
  });
  const valuedByUsage = new Set(options.filter((option) => option.takes_value && (flagsBeforeUsage.has(option) || !knownBeforeUsage.has(option))));
  if (go.options.length === 0) read('attached-value-mention', () => applyAttachedValueMentions(options, rawLines));
  read('usage-line', () => markRequiredOptions(options, forms));

  // the words a dialect reads as commands in its forms (docopt), from the first reader naming any
  const docoptWords = DIALECT_READERS.reduce<string[]>((found, reader) => (found.length > 0 || reader.commandWords === undefined ? found : reader.commandWords(forms, usageForms)), []);
  const firstForm = forms.find((form) => form.program !== null);
  const subcommands = collectSubcommands(scan.entries, docoptWords, firstForm?.program ? programBaseName(firstForm.program) : null);
  // bpaf `Usage: [-c=<./.oxlintrc.json>] [PATH]...`: with no form naming the program, the first form's positionals still count
  const formPositionals = firstForm?.positionals ?? forms[0]?.positionals ?? [];
  let usagePositionals: UsagePositional[] = [];
  /** Runs a reader of the usage forms' positionals, its changes recorded as claims of `help:<reader>.<rule>`. */
  const readUsage = (rule: string, run: () => UsagePositional[], reader = 'generic'): void => {
    usagePositionals = ledger.tracePositionals(helpSource(reader, rule), usagePositionals, run);
  };
  readUsage(docoptWords.length > 0 ? 'usage-form' : 'usage-line', () => (docoptWords.length > 0 && subcommands.length > 0 ? [] : formPositionals), docoptWords.length > 0 ? 'docopt' : 'generic');
  if (firstForm !== undefined) readUsage('usage-forms', () => optionalWhereAnotherFormRunsWithout(usagePositionals, firstForm, usageForms, forms));
  if (firstForm !== undefined && docoptWords.length === 0) readUsage('usage-forms', () => extendedByOtherForms(usagePositionals, firstForm, forms, runsWithoutPositionals(firstForm, forms, scan.usageForms)));
  if (firstForm !== undefined && docoptWords.length === 0) readUsage('usage-forms', () => variadicInOtherForms(usagePositionals, firstForm, forms));
  if (firstForm !== undefined && docoptWords.length === 0 && usagePositionals.length > 0) {
    readUsage('usage-forms', () => argumentsOfFlagModes(usagePositionals, firstForm, forms, usageForms, (spelling) => options.some((option) => !option.takes_value && (option.long === spelling.replace(/^--/, '') || option.short === spelling.replace(/^-/, '')))));
  }
  // yargs nyc: `nyc [command] [options]` then `nyc [options] [bin-to-instrument]`: a later form of the
  // program without the command placeholder (nor a listed command) shows what the root itself takes
  if (subcommands.length > 0 && firstForm !== undefined && usagePositionals.length > 0 && usagePositionals.every((positional) => COMMAND_PLACEHOLDER.test(positional.name))) {
    const rootForm = forms.find(
      (form) =>
        form !== firstForm &&
        form.program === firstForm.program &&
        form.commandPath.length === 0 &&
        form.positionals.length > 0 &&
        !form.positionals.some((positional) => COMMAND_PLACEHOLDER.test(positional.name) || subcommands.some((command) => command.name === positional.name)) &&
        !form.leadingLiterals.some((word) => subcommands.some((command) => command.name === word)),
    );
    if (rootForm !== undefined) readUsage('usage-forms', () => [...usagePositionals, ...rootForm.positionals]);
  }
  if (usagePositionals.length === 0 && subcommands.length === 0 && firstForm?.program) {
    const program = firstForm.program;
    readUsage('synopsis-line', () => synopsisPositionals(scan.synopsisLines, program, takesValue));
  }
  if (forms.length === 0 && subcommands.length === 0 && usagePositionals.length === 0) readUsage('leading-placeholder', () => leadingPlaceholderPositionals(scan.paragraphs));
  // the dialects' corrections (urfave's own form under `NAME:`, cac's default usage: boilerplate)
  dialectContext.program = firstForm?.program ?? null;
  dialectContext.subcommandCount = subcommands.length;
  for (const reader of DIALECT_READERS) {
    const stage = reader.usagePositionals;
    if (stage !== undefined) readUsage(stage.rule, () => stage.read(usagePositionals, dialectContext), reader.id);
  }
  if (optionsCalledArguments(rawLines)) usagePositionals = usagePositionals.filter((positional) => positional.required || !ARGUMENTS_PLACEHOLDER.test(positional.name));
  usagePositionals = withoutOptionSetPlaceholders(usagePositionals, rawLines);
  let positionals: CliPositional[] = [...usagePositionals];
  /** Runs a reader of the positionals (in place, or returning the new list). */
  const readPositionals = (rule: string, run: () => CliPositional[] | void, reader = 'generic'): void => {
    positionals = ledger.tracePositionals(helpSource(reader, rule), positionals, run);
  };
  /** Runs the dialect readers of a positional stage, in table order. */
  const runPositionalReaders = (stage: 'positionalShape' | 'positionalFiles'): void => {
    for (const reader of DIALECT_READERS) {
      const hook = reader[stage];
      if (hook !== undefined) readPositionals(hook.rule, () => hook.read(positionals, dialectContext), reader.id);
    }
  };
  readPositionals('positional-entry', () => collectPositionals(scan.entries, usagePositionals, subcommands));
  readPositionals('prose-named-positional', () => splitProseNamedPositionals(positionals, rawLines));
  readPositionals('pass-through-positional', () => withPassThroughPositional(positionals, subcommands.length > 0 ? [] : usageForms));
  readPositionals('positional-prose', () => {
    markMultiWordPositionals(positionals, rawLines);
    markPluralPositionals(positionals, rawLines);
    markOptionalListedPositionals(positionals, rawLines);
    withoutOptionalMarker(positionals);
  });
  runPositionalReaders('positionalShape');
  readPositionals('positional-prose', () => {
    collapseNumberedPositionals(positionals);
    markPositionalsProseLetOut(positionals, rawLines);
    markPositionalsDefaultedInProse(positionals, rawLines);
    markPositionalsDefaultedInEntry(positionals, rawLines);
  });
  runPositionalReaders('positionalFiles');
  // round 16: a proposed positional the text's evidence names as something else is dropped (evidence-positionals.ts)
  ledger.claimAll(
    evidencePositionalClaims(
      positionals,
      {
        lines: rawLines,
        subcommands,
        program: firstForm?.program ?? null,
        isFlag: (spelling) => options.some((option) => !option.takes_value && (option.long === spelling.replace(/^--/, '') || option.short === spelling.replace(/^-/, ''))),
      },
      WEIGHT.fallback,
    ),
  );
  positionals = ledger.kept(positionals);
  // (a default dropped as naming an argument was still stated: the option it made value-taking shows no placeholder)
  const statedDefaults = new Set(options.filter((option) => option.default !== null));
  read('default-names-argument', () => {
    dropDefaultsNamingArguments(options, [...positionals, ...usagePositionals], rawLines);
    dropDefaultsNamingOptions(options);
  });

  let programName: string | null = null;
  const specSources: FieldSources = {};
  if (goUsage) programName = goUsage[1] ?? programBaseName(goUsage[2] ?? '');
  if (goUsage) specSources.name = helpSource('goflag', 'usage-of');
  // cfssl `Usage of gencert:` over `cfssl gencert -initca CSRJSON`: a subcommand's FlagSet named by its last word; its forms give the path
  const formPath = firstForm?.program ? [programBaseName(firstForm.program), ...firstForm.commandPath] : [];
  if (goUsage && goUsage[1] === undefined && formPath.length > 1 && formPath[formPath.length - 1] === programName) programName = formPath.join(' ');
  if (programName === null && firstForm?.program) programName = programNameOf(forms, firstForm.program, commandPrefixOf(scan.entries.filter((entry) => entry.kind === 'command'), programBaseName(firstForm.program)));
  // docopt docker-compose `Usage: up [options]` under prose naming `` `docker-compose up` ``: the full path
  if (programName !== null && firstForm?.program === programName && subcommands.length === 0) programName = backquotedCommandPath(programName, rawLines) ?? programName;
  if (programName !== null) specSources.name ??= helpSource('generic', 'usage-line');
  programName ??= fallbackProgramName(lines, parseOptions?.fileName, scan.synopsisLines);
  specSources.name ??= programName !== null && programName !== programBaseName(parseOptions?.fileName ?? '') ? helpSource('generic', 'first-line') : 'file-name';
  read('example-line', () => addExampleOnlyFlags(options, lines, programName === null ? null : programBaseName(programName.split(' ')[0] ?? '')));
  read('flush-left-type', () => applyFlushLeftTypes(scan.entries, options, lines, programName?.split(' ')[0] ?? null));
  if (go.options.length === 0 && style.untaggedTakesValue !== true) {
    // the options a stated default made value-taking show no placeholder either: the help stays bare
    const stillBare = bare && options.every((option) => !option.takes_value || statedDefaults.has(option) || valuedByUsage.has(option));
    // (yargs karma `--port   <integer> Port …`: the only placeholders open descriptions, written by hand)
    read('description-value-cue', () => applyDescriptionValueTaking(options, byHand.any || stillBare || handWritten || placeholdersOpenDescriptions(scan.entries)));
    read('list-form-value', () => applyListFormValueTaking(options));
  }
  read('stated-value-default', () => applyStatedValueDefaults(options, scan.entries));
  if (go.options.length === 0) read('glued-short-mention', () => applyGluedShortMentions(options));
  if (go.options.length === 0) read('described-placeholder', () => applyDescribedPlaceholders(options));
  read('marked-default-bar-list', () => applyMarkedDefaultBarLists(options));
  runOptionReaders('statedValues');
  // the rules found no choices: a list the description's own words vouch for (evidence-choices.ts),
  // joined by commas in one value where the description says so (as option-entry.ts does for the rules')
  // the evidence fallback emits claims at weight `fallback`: the resolver gives them a list only where
  // no reader decided one, joined by commas in one value where the description says so (as
  // option-entry.ts does for the rules')
  const evidence = helpSource('generic', 'evidence-choices');
  for (const option of options) {
    if (!option.takes_value || option.choices !== null) continue;
    const choices = evidenceChoices(option.description ?? '', option.value_name, [option.long ?? '', option.short ?? ''], option.default === null ? null : String(option.default));
    if (choices === null || !ledger.claim({ field: 'choices', option, value: choices, source: evidence, weight: WEIGHT.fallback })) continue;
    if (valueSeparatorOf(option.description) !== undefined) ledger.claim({ field: 'value_separator', option, value: ',', source: evidence, weight: WEIGHT.fallback });
    // (`12 (TLSv1.2) or 13 (TLSv1.3). [12]`: a number read as the default is one of the listed values, a string as they are)
    if (typeof option.default === 'number' && choices.includes(String(option.default))) ledger.claim({ field: 'default', option, value: String(option.default), source: evidence, weight: WEIGHT.generic });
  }
  // round 14: the generic fallback, only where the rules above found no default (evidence-defaults.ts)
  ledger.claimAll(evidenceDefaultClaims(options, WEIGHT.fallback, [...positionals, ...usagePositionals].map((positional) => positional.name), scan.entries));
  runOptionReaders('fallbackDefaults');
  // rdfind `options are (default choice within parentheses)`: the help's own legend for its defaults
  read('legend-defaults', () => applyLegendDefaults(options, scan.entries, rawLines));
  // …which names an argument as no default either (the fallback only knows the ones in capitals)
  read('default-names-argument', () => dropDefaultsNamingArguments(options, [...positionals, ...usagePositionals], rawLines));
  const name = sanitizeToolName(programName ?? parseOptions?.fileName ?? 'tool');

  // how each value is written (`-B#` glued, Go's `-lang  str` type column) and the help's own summary
  read('value-forms', () => applyValueForms(options, scan.entries));
  const description = helpSummary(scan.paragraphs, scan.seenUsage);
  if (description.length > 0) specSources.description = helpSource('generic', 'summary');
  if (subcommands.length > 0) specSources.subcommands = helpSource(docoptWords.length > 0 ? 'docopt' : 'generic', docoptWords.length > 0 ? 'usage-form' : 'command-entry');
  const spec: CliSpec = { name, description, options, positionals, subcommands };
  if (subcommands.length > 0) {
    // `Usage: hashenc [OPTIONS] <COMMAND> <TEXT>`: a command placeholder outside brackets is required
    if (usagePositionals.some((positional) => positional.required && COMMAND_PLACEHOLDER.test(positional.name)) && positionals.length > 0) {
      spec.command_required = true;
      specSources.command_required = helpSource('generic', 'usage-line');
    }
    if (layout.optionsAfterCommand !== null) {
      spec.options_after_command = true;
      specSources.options_after_command = layout.optionsAfterCommand;
    }
  }
  specSources.framework = `help:fingerprint.${fingerprint.framework}`;
  setSources(spec, specSources);
  ledger.finish([...options, ...positionals]);
  return { spec, unparsed: scan.unparsed };
}

/** Like `parseHelp`, and also says which lines of the options sections were not understood. */
export function parseHelpReport(text: string, options?: ParseHelpOptions): HelpParseReport {
  try {
    return parseHelpUnsafe(typeof text === 'string' ? text : '', options);
  } catch {
    // Defensive: the parser is written not to throw, but a spec is always returned.
    return {
      spec: { name: sanitizeToolName(programBaseName(options?.fileName ?? 'tool')), description: '', options: [], positionals: [], subcommands: [] },
      unparsed: [],
    };
  }
}

export function parseHelp(text: string, options?: ParseHelpOptions): CliSpec {
  return parseHelpReport(text, options).spec;
}
