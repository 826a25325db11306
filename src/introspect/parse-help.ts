/**
 * `parseHelp`: turns the help text of a CLI program into a `CliSpec`, behind one signature, never
 * throwing, linear in the (capped) input. The core runs tables and readers; it names no framework:
 *
 * layout (limits.ts caps, the dialect table's `relayout`, help-scan.ts: usage forms, entries,
 * paragraphs) → fingerprint (reader/fingerprint.ts) → the entry reader (option-entry.ts) and the
 * dialect rows' stages (dialects/index.ts) → the usage grammar (usage.ts; several forms:
 * usage-forms.ts) → generic readers, each emitting claims `{field, option, value, source, weight}`
 * (item-level claims where it names options or positionals) → the fallbacks (evidence-choices,
 * evidence-defaults, evidence-positionals at weight `fallback`) → the resolver (reader/claims.ts),
 * which keeps each field's source for `inspect --json`. The program's name: program-name.ts.
 */
import { dropDefaultsNamingArguments, dropDefaultsNamingOptions } from './argument-defaults.ts';
import { applyDefaultsSection } from './defaults-section.ts';
import { applyBareListedChoices, applyDescriptionValueTaking, applyListFormValueTaking, isBareHelp } from './description-values.ts';
import { applyFlushLeftTypes } from './flush-left-types.ts';
import { dropGluedValueSpellings } from './glued-values.ts';
import { collapseNumberedPositionals, readPositionalShape, readPositionalsLetOut, splitProseNamedPositionals } from './positional-prose.ts';
import { applyShortcutDefaults, readValueShortcutLines } from './value-shortcut-lines.ts';
import { applyPairedPlaceholderSpellings } from './paired-literal-spelling.ts';
import { applyOverflowingValueNames } from './overflowing-value.ts';
import { applyAppendedMetavars } from './appended-metavar.ts';
import { manNamePath, withManNamePath } from './man-name-path.ts';
import { applyLegendDefaults } from './legend-defaults.ts';
import { usageBareFlags } from './usage-bare-flags.ts';
import { addExampleOnlyFlags, addUsageLongOptions, addUsageModeOptions, addUsageOnlyOptions, addUsageSpelledValueOptions, applyGroupedUsageValues, applyUsageValueWords } from './usage-options.ts';
import { splitGoFlagSpellings, splitRespectiveSpellings } from './respective-spellings.ts';
import { looksHandLaidOut } from './hand-layout.ts';
import { applyHandWrittenValues } from './hand-written-values.ts';
import { applyStatedValueDefaults } from './stated-value-defaults.ts';
import { evidenceDefaultClaims } from './evidence-defaults.ts';
import { scanHelpLines, type HelpScan, type UnparsedLine } from './help-scan.ts';
import { helpSummary } from './help-summary.ts';
import { applyValueForms } from './value-forms.ts';
import { applySingleDashNames } from './single-dash-names.ts';
import { expandTabs, helpLines } from './limits.ts';
import { readSectionValueLists } from './section-value-lists.ts';
import { withoutOptionSetPlaceholders } from './option-set-placeholder.ts';
import { collectOptions, optionFromEntry, type OptionStyle } from './option-entry.ts';
import { applyUsageFlagClusters, splitSiblingShorts } from './short-flag-clusters.ts';
import { applyAttachedValueMentions, applyDescribedPlaceholders, applyGluedShortMentions } from './attached-value-mentions.ts';
import { leadingPlaceholderPositionals } from './leading-placeholder.ts';
import { placeholdersOpenDescriptions } from './opening-placeholders.ts';
import { collectPositionals, collectSubcommands, commandPrefixOf, withPassThroughPositional } from './positional-entry.ts';
import type { CliOption, CliPositional, CliSpec, FieldSources } from './spec.ts';
import { parseUsageForm, programBaseName, type UsageForm, type UsagePositional } from './usage.ts';
import { fallbackProgramName, headlineForm, programNameOf } from './program-name.ts';
import {
  argumentsOfFlagModes,
  ARGUMENTS_PLACEHOLDER,
  COMMAND_PLACEHOLDER,
  extendedByOtherForms,
  optionalWhereAnotherFormRunsWithout,
  optionsCalledArguments,
  runsWithoutPositionals,
  synopsisPositionals,
  variadicInOtherForms,
} from './usage-forms.ts';
import { typeFromValueName } from './value-type.ts';
import { sanitizeToolName } from '../tool-name.ts';
import { evidenceChoiceClaims } from './evidence-choices.ts';
import { applyMarkedDefaultBarLists } from './marked-default-bar-list.ts';
import { evidencePositionalClaims } from './evidence-positionals.ts';
import { ClaimLedger, helpSource, setSources, WEIGHT, type Claimer, type OptionClaims } from './reader/claims.ts';
import { DIALECT_READERS, dialectLayout, placeholdersByHand, readOwnLines, readUsageTitle, relayout, tagsEveryType, type DialectContext } from './dialects/index.ts';
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

const byName = (positional: { name: string }): string => positional.name;

/** Options written outside brackets in every usage form are required. */
function markRequiredOptions(options: CliOption[], forms: readonly UsageForm[], claim: Claimer): void {
  if (forms.length === 0) return;
  for (const option of options) {
    const spellings = [option.long !== null ? `${option.prefix ?? '--'}${option.long}` : null, option.short !== null ? `-${option.short}` : null];
    if (forms.every((form) => form.requiredOptions.some((spelling) => spellings.includes(spelling)))) claim(option, 'required', true);
  }
}


function parseHelpUnsafe(text: string, parseOptions: ParseHelpOptions | undefined): HelpParseReport {
  const rawLines = relayout(helpLines(text));
  const fingerprint = fingerprintHelp(rawLines);
  const { traits } = fingerprint;
  const ledger = new ClaimLedger();
  // a dialect's own lines (Go `flag`), read before the scan: such a help is complete, no cue applies
  const own = readOwnLines(rawLines);
  if (own.source !== null) for (const option of own.options) ledger.exists(option, own.source);
  const lines = rawLines.map((line, index) => (own.consumed.has(index) ? '' : expandTabs(line)));
  // a title naming the program (Go's `Usage of NAME:`, maybe under a headline and a blank line: cfssl)
  const title = readUsageTitle(rawLines);
  const scan: HelpScan = scanHelpLines(lines, (index) => own.consumed.has(index) || index === title?.index, title !== null ? title.index : null);
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
  /** The claimer of a reader of the options: its claims are `help:<reader>.<rule>`, applied as it reads. */
  const claims = (rule: string, reader = 'generic'): Claimer => ledger.claimer(helpSource(reader, rule));
  /** The entry reader: each option it reads `exists`; a dialect's own option it merges an entry into is `replaced`. */
  const buildOptions = (): CliOption[] => {
    const entryClaims = ledger.items<CliOption>(helpSource(fingerprint.framework, 'option-entry'));
    const ownBefore = own.options.map((option) => ({ ...option }));
    const parsed: CliOption[] = [...own.options];
    for (const entry of scan.entries) {
      const option = entry.kind === 'option' && !(proseOptions && entry.afterUsage !== true) ? optionFromEntry(entry, style) : null;
      if (option !== null) {
        parsed.push(...splitSiblingShorts(entry, option).flatMap((one) => splitRespectiveSpellings(entry, one)).flatMap((one) => splitGoFlagSpellings(one, title !== null)));
      }
    }
    const built = dropGluedValueSpellings(collectOptions(parsed));
    for (const option of built) {
      const at = own.options.indexOf(option);
      if (at === -1) entryClaims.exists(option);
      else entryClaims.replaces(ownBefore[at] as CliOption, option);
    }
    readSectionValueLists(built, scan.paragraphs, lines, claims);
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
      if (hook !== undefined) hook.read(options, dialectContext, claims(hook.rule, reader.id));
    }
  };
  /** The claims of a reader that adds options: its field and item-level claims are `help:generic.<rule>`. */
  const emits = (rule: string): OptionClaims => ({ claim: claims(rule), ...ledger.items<CliOption>(helpSource('generic', rule)) });
  // sade prints no placeholders (`-p, --port   Port to bind  (default 8080)`): where no option shows
  // one, a stated default other than a boolean says the option takes a value
  const bare = own.options.length === 0 && style.untaggedTakesValue !== true && isBareHelp(options);
  if (bare) {
    style.statedDefaultTakesValue = true;
    options = buildOptions();
    runOptionReaders('bareHelp');
    applyBareListedChoices(options, claims('bare-listed-choices'));
  }

  // a dialect that never prints a placeholder of its own (meow): however few its options, a stated
  // default other than a boolean says a value is taken, as above
  const byHand = placeholdersByHand(rawLines);
  if (!bare && own.options.length === 0 && style.untaggedTakesValue !== true && byHand.statedDefaults) {
    style.statedDefaultTakesValue = true;
    options = buildOptions();
  }

  applyDefaultsSection(options, rawLines, claims('defaults-section'));
  applyShortcutDefaults(options, shortcutValues, claims('value-shortcut-line'));

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
  if (own.options.length === 0 && style.untaggedTakesValue !== true) {
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
    footnotes = applyHandWrittenValues(options, rawLines, exampleProgram, positionalsTaken, commandWords, maxPositionals, claims('hand-written-values'));
    handWritten = footnotes || looksHandLaidOut(rawLines);
    if (handWritten && style.statedDefaultTakesValue !== true) {
      style.statedDefaultTakesValue = true;
      options = buildOptions();
      applyDefaultsSection(options, rawLines, claims('defaults-section'));
      applyShortcutDefaults(options, shortcutValues, claims('value-shortcut-line'));
      applyHandWrittenValues(options, rawLines, exampleProgram, positionalsTaken, commandWords, maxPositionals, claims('hand-written-values'));
    }
  }
  // mosquitto: values the usage forms give (`{-t topic | -L URL}`) are no placeholder the list shows
  const flagsBeforeUsage = new Set(options.filter((option) => !option.takes_value));
  const knownBeforeUsage = new Set(options);
  const usageForms = scan.usageForms.slice(0, MAX_USAGE_FORMS);
  applyUsageFlagClusters(options, usageForms, scan.entries, emits('usage-flag-cluster'));
  const usageLine = emits('usage-line');
  addUsageOnlyOptions(options, usageForms, usageLine);
  addUsageSpelledValueOptions(options, usageForms, usageLine);
  addUsageLongOptions(options, usageForms, usageLine);
  addUsageModeOptions(options, usageForms, usageLine);
  applyUsageValueWords(options, [...usageForms, ...DIALECT_READERS.flatMap((reader) => reader.usageLines?.(rawLines) ?? []).slice(0, MAX_USAGE_FORMS)], usageLine.claim);
  // only where the list shows no placeholder (optparse cProfile `[-m module | scriptfile]` lists `-m` bare: a flag)
  if (bare) applyGroupedUsageValues(options, usageForms, usageLine);
  const valuedByUsage = new Set(options.filter((option) => option.takes_value && (flagsBeforeUsage.has(option) || !knownBeforeUsage.has(option))));
  if (own.options.length === 0) applyAttachedValueMentions(options, rawLines, claims('attached-value-mention'));
  markRequiredOptions(options, forms, claims('usage-line'));

  /** Whether a spelling (`-r`, `--recursive`) is a listed option taking no value. */
  const isListedFlag = (spelling: string): boolean => options.some((option) => !option.takes_value && (option.long === spelling.replace(/^--/, '') || option.short === spelling.replace(/^-/, '')));
  // the words a dialect reads as commands in its forms (docopt), from the first reader naming any
  const docoptWords = DIALECT_READERS.reduce<string[]>((found, reader) => (found.length > 0 || reader.commandWords === undefined ? found : reader.commandWords(forms, usageForms)), []);
  const firstForm = forms.find((form) => form.program !== null);
  const subcommands = collectSubcommands(scan.entries, docoptWords, firstForm?.program ? programBaseName(firstForm.program) : null);
  // bpaf `Usage: [-c=<./.oxlintrc.json>] [PATH]...`: with no form naming the program, the first form's positionals still count
  const formPositionals = firstForm?.positionals ?? forms[0]?.positionals ?? [];
  let usagePositionals: UsagePositional[] = [];
  /** Runs a reader of the usage forms' positionals: the list it returns becomes item-level claims of `help:<reader>.<rule>`. */
  const readUsage = (rule: string, run: () => UsagePositional[], reader = 'generic'): void => {
    usagePositionals = ledger.list(helpSource(reader, rule), usagePositionals.slice(), run(), byName);
  };
  readUsage(docoptWords.length > 0 ? 'usage-form' : 'usage-line', () => (docoptWords.length > 0 && subcommands.length > 0 ? [] : formPositionals), docoptWords.length > 0 ? 'docopt' : 'generic');
  if (firstForm !== undefined) readUsage('usage-forms', () => optionalWhereAnotherFormRunsWithout(usagePositionals, firstForm, usageForms, forms));
  if (firstForm !== undefined && docoptWords.length === 0) readUsage('usage-forms', () => extendedByOtherForms(usagePositionals, firstForm, forms, runsWithoutPositionals(firstForm, forms, scan.usageForms)));
  if (firstForm !== undefined && docoptWords.length === 0) readUsage('usage-forms', () => variadicInOtherForms(usagePositionals, firstForm, forms));
  if (firstForm !== undefined && docoptWords.length === 0 && usagePositionals.length > 0) {
    readUsage('usage-forms', () => argumentsOfFlagModes(usagePositionals, firstForm, forms, usageForms, isListedFlag));
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
  /** Runs a reader of the positionals (returning the new list, or adding to it): item-level claims of `help:<reader>.<rule>`. */
  const readPositionals = (rule: string, run: () => CliPositional[] | void, reader = 'generic'): void => {
    const before = positionals.slice();
    positionals = ledger.list(helpSource(reader, rule), before, run() ?? positionals, byName);
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
  const prose = ledger.positionalClaimer(helpSource('generic', 'positional-prose'));
  readPositionalShape(positionals, rawLines, prose);
  runPositionalReaders('positionalShape');
  readPositionals('positional-prose', () => collapseNumberedPositionals(positionals));
  readPositionalsLetOut(positionals, rawLines, prose);
  runPositionalReaders('positionalFiles');
  // round 16: a proposed positional the text's evidence names as something else is dropped (evidence-positionals.ts)
  ledger.claimAll(
    evidencePositionalClaims(
      positionals,
      {
        lines: rawLines,
        subcommands,
        program: firstForm?.program ?? null,
        isFlag: isListedFlag,
      },
      WEIGHT.fallback,
    ),
  );
  positionals = ledger.kept(positionals);
  // (a default dropped as naming an argument was still stated: the option it made value-taking shows no placeholder)
  const statedDefaults = new Set(options.filter((option) => option.default !== null));
  const namesArgument = claims('default-names-argument');
  dropDefaultsNamingArguments(options, [...positionals, ...usagePositionals], rawLines, namesArgument);
  dropDefaultsNamingOptions(options, namesArgument);

  let programName: string | null = null;
  const specSources: FieldSources = {};
  if (title !== null) programName = title.quoted ?? programBaseName(title.plain ?? '');
  if (title !== null) specSources.name = title.source;
  // cfssl `Usage of gencert:` over `cfssl gencert -initca CSRJSON`: a subcommand's FlagSet named by its last word; its forms give the path
  const formPath = firstForm?.program ? [programBaseName(firstForm.program), ...firstForm.commandPath] : [];
  if (title !== null && title.quoted === null && formPath.length > 1 && formPath[formPath.length - 1] === programName) programName = formPath.join(' ');
  if (programName === null && firstForm?.program) programName = programNameOf(forms, firstForm.program, commandPrefixOf(scan.entries.filter((entry) => entry.kind === 'command'), programBaseName(firstForm.program)));
  // docopt docker-compose `Usage: up [options]` under prose naming `` `docker-compose up` ``: the full path
  if (programName !== null && firstForm?.program === programName && subcommands.length === 0) programName = backquotedCommandPath(programName, rawLines) ?? programName;
  if (programName !== null) specSources.name ??= helpSource('generic', 'usage-line');
  programName ??= fallbackProgramName(lines, parseOptions?.fileName, scan.synopsisLines);
  specSources.name ??= programName !== null && programName !== programBaseName(parseOptions?.fileName ?? '') ? helpSource('generic', 'first-line') : 'file-name';
  addExampleOnlyFlags(options, lines, programName === null ? null : programBaseName(programName.split(' ')[0] ?? ''), emits('example-line'));
  applyFlushLeftTypes(scan.entries, options, lines, programName?.split(' ')[0] ?? null, claims('flush-left-type'));
  if (own.options.length === 0 && style.untaggedTakesValue !== true) {
    // the options a stated default made value-taking show no placeholder either: the help stays bare
    const stillBare = bare && options.every((option) => !option.takes_value || statedDefaults.has(option) || valuedByUsage.has(option));
    // (yargs karma `--port   <integer> Port …`: the only placeholders open descriptions, written by hand)
    applyDescriptionValueTaking(options, byHand.any || stillBare || handWritten || placeholdersOpenDescriptions(scan.entries), claims('description-value-cue'));
    applyListFormValueTaking(options, claims('list-form-value'));
  }
  applyStatedValueDefaults(options, scan.entries, claims('stated-value-default'));
  if (own.options.length === 0) applyGluedShortMentions(options, claims('glued-short-mention'));
  if (own.options.length === 0) applyDescribedPlaceholders(options, claims('described-placeholder'));
  applyMarkedDefaultBarLists(options, claims('marked-default-bar-list'));
  runOptionReaders('statedValues');
  // the fallbacks, at weight `fallback`: the resolver gives them a value only where no reader decided one
  ledger.claimAll(evidenceChoiceClaims(options));
  // round 14: the generic fallback, only where the rules above found no default (evidence-defaults.ts)
  ledger.claimAll(evidenceDefaultClaims(options, WEIGHT.fallback, [...positionals, ...usagePositionals].map((positional) => positional.name), scan.entries));
  runOptionReaders('fallbackDefaults');
  // rdfind `options are (default choice within parentheses)`: the help's own legend for its defaults
  applyLegendDefaults(options, scan.entries, rawLines, claims('legend-defaults'));
  // …which names an argument as no default either (the fallback only knows the ones in capitals)
  dropDefaultsNamingArguments(options, [...positionals, ...usagePositionals], rawLines, claims('default-names-argument'));
  const name = sanitizeToolName(programName ?? parseOptions?.fileName ?? 'tool');

  // how each value is written (`-B#` glued, Go's `-lang  str` type column) and the help's own summary
  applyValueForms(options, scan.entries, claims('value-forms'));
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
