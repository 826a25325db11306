/**
 * `parseHelp`: turns the help text of a CLI program into a `CliSpec`. One style-tolerant,
 * line-oriented parser covers GNU getopt/argp, argparse/optparse, click/typer, clap, cobra/pflag,
 * commander/yargs, docopt and hand-written help; Go's `flag` output is recognized separately
 * (see go-flag.ts). It never throws and is linear in the (capped) input.
 */
import { extractDescriptionFacts } from './annotations.ts';
import { extractGoFlags, looksLikeGoFlag } from './go-flag.ts';
import { clampDescription, expandTabs, helpLines, indentOf, MAX_OPTIONS } from './limits.ts';
import { parseOptionHead, type OptionHead } from './option-head.ts';
import type { CliOption, CliPositional, CliSpec, CliSubcommand, CliValueType } from './spec.ts';
import { parseUsageForm, programBaseName, type UsageForm, type UsagePositional } from './usage.ts';
import { coerceDefault, isExplicitStringName, typeFromDefault, typeFromValueName } from './value-type.ts';
import { sanitizeToolName } from '../tool-name.ts';

export interface ParseHelpOptions {
  /** The component's file name, the last resort for the tool name. */
  fileName?: string;
}

type SectionKind = 'none' | 'options' | 'positionals' | 'commands' | 'usage' | 'other';

interface Entry {
  kind: 'option' | 'positional' | 'command';
  indent: number;
  /** Column where the description starts on the head line, or null when the head stood alone. */
  descriptionColumn: number | null;
  head: string;
  option: OptionHead | null;
  description: string[];
}

const SECTION_HEADER = /^ {0,3}([A-Za-z][\w ,/()'-]{0,60}):$/;
const OPTION_START = /^-{1,2}[A-Za-z0-9?#@[]/;
const MAX_USAGE_LINES = 40;
const MAX_USAGE_FORM_CHARS = 2000;

function classifySection(title: string): SectionKind {
  const lowered = title.toLowerCase();
  if (lowered === 'usage') return 'usage';
  if (/\bcommands?\b|\bsubcommands?\b/.test(lowered) && !/\boptions?\b|\bflags?\b/.test(lowered)) return 'commands';
  if (/\barguments?\b|\bpositionals?\b/.test(lowered) && !/\boptions?\b|\bflags?\b/.test(lowered)) return 'positionals';
  if (/\boptions?\b|\bflags?\b|\bswitches\b|\bparameters\b/.test(lowered)) return 'options';
  if (/\bexamples?\b|\benvironment\b|\bsee also\b|\bexit status\b|\bnotes?\b|\bauthors?\b/.test(lowered)) return 'other';
  return 'options';
}

function isHelpOrVersion(option: CliOption): boolean {
  if (option.long === 'help' || option.long === 'version') return true;
  if (option.long === 'usage' && /usage message/i.test(option.description ?? '')) return true;
  if (option.long === null && (option.short === 'h' || option.short === '?') && /\bhelp\b/i.test(option.description ?? '')) return true;
  if (option.long === null && option.short === 'V' && /\bversion\b/i.test(option.description ?? '')) return true;
  return false;
}

function optionFromEntry(entry: Entry): CliOption | null {
  const head = entry.option;
  if (head === null) return null;
  const text = [head.rest, ...entry.description].filter((part) => part.length > 0).join(' ');
  const facts = extractDescriptionFacts(text);
  const choices = head.choices ?? facts.choices;
  const takesValue = head.valueName !== null || head.choices !== null;
  let type: CliValueType;
  if (!takesValue) {
    type = 'boolean';
  } else if (choices !== null) {
    type = 'string';
  } else {
    type =
      typeFromValueName(head.valueName) ??
      (facts.typeHint !== null && facts.typeHint !== 'boolean' ? facts.typeHint : null) ??
      (facts.defaultText !== null && !isExplicitStringName(head.valueName) ? typeFromDefault(facts.defaultText, facts.defaultQuoted) : null) ??
      'string';
  }
  // yargs prints no placeholder; its `[string]`/`[number]`/`[array]` tags say a value is taken.
  let takes = takesValue;
  if (!takes && facts.typeHint !== null && facts.typeHint !== 'boolean') {
    takes = true;
    type = facts.typeHint;
  }
  if (!takes && facts.repeatable && /\[array\]/i.test(text)) {
    takes = true;
    type = 'string';
  }
  if (!takes && (facts.choices !== null || (facts.defaultText !== null && !/^(true|false)$/i.test(facts.defaultText) && !head.negation))) {
    // yargs `--mode [choices: …] [default: "fit"]` without a placeholder still takes a value.
    if (head.valueName === null && /\[(choices|default):/i.test(text)) {
      takes = true;
      type = facts.choices !== null ? 'string' : (typeFromDefault(facts.defaultText ?? '', facts.defaultQuoted) ?? 'string');
    }
  }
  const long = head.longs[0] ?? null;
  let defaultValue: string | number | boolean | null = null;
  if (facts.defaultText !== null) {
    if (!takes && head.negation !== null && long !== null) {
      // click `--x / --no-x  [default: x]` or `[default: no-x]`
      const negationName = head.negation.replace(/^-+/, '');
      if (facts.defaultText === long.name || /^true$/i.test(facts.defaultText)) defaultValue = true;
      else if (facts.defaultText === negationName || /^false$/i.test(facts.defaultText)) defaultValue = false;
    } else {
      defaultValue = coerceDefault(facts.defaultText, type);
    }
  }
  const option: CliOption = {
    long: long?.name ?? null,
    short: head.shorts[0] ?? null,
    aliases: head.aliases,
    takes_value: takes,
    value_name: head.valueName,
    type,
    default: defaultValue,
    choices: takes ? choices : null,
    repeatable: head.repeatable || facts.repeatable,
    required: facts.required,
    negation: head.negation,
    description: facts.description.length > 0 ? clampDescription(facts.description) : null,
  };
  if (long !== null && long.dashes === '-') option.prefix = '-';
  if (head.valueOptional) option.value_optional = true;
  return option;
}

function positionalFromEntry(entry: Entry): { positional: CliPositional; decorated: boolean } | null {
  const match = /^(\S+)(?:\s(<[^>]{1,40}>))?/.exec(entry.head);
  if (!match) return null;
  const raw = match[1] ?? '';
  const optional = raw.startsWith('[');
  const variadic = /\.{2,3}\]?$/.test(raw);
  const name = raw.replace(/^[[<{]+/, '').replace(/\.{2,3}$/, '').replace(/[\]>}]+$/, '').replace(/\.{2,3}$/, '');
  if (name.length === 0 || !/^[A-Za-z0-9_][\w.-]*$/.test(name)) return null;
  const facts = extractDescriptionFacts(entry.description.join(' '));
  const positional: CliPositional = {
    name,
    required: !optional,
    variadic,
    description: facts.description.length > 0 ? clampDescription(facts.description) : null,
  };
  const typeWord = match[2] ?? null;
  const type = typeFromValueName(typeWord) ?? facts.typeHint;
  if (type !== null && type !== 'boolean') positional.type = type;
  return { positional, decorated: /^[[<]/.test(raw) || variadic };
}

function commandFromEntry(entry: Entry): CliSubcommand | null {
  const match = /^([A-Za-z0-9][\w.:-]*)/.exec(entry.head);
  if (!match) return null;
  const name = match[1] ?? '';
  const description = entry.description.join(' ');
  if (description.length === 0 && /^[A-Z][A-Z0-9_]*$/.test(name)) return null; // argparse's `COMMAND` metavar line
  if (name === 'help') return null;
  if (name === 'completion' && /autocompletion script/i.test(description)) return null;
  return { name, description: description.length > 0 ? clampDescription(description) : null };
}

interface Paragraph {
  lines: string[];
  afterUsage: boolean;
  /** True when an option, positional or command entry was seen before this paragraph. */
  afterEntries: boolean;
}

function looksLikeBareUsage(line: string): boolean {
  // yargs prints `prog [options] <files..>` with no "Usage:" prefix.
  return /^[A-Za-z$][\w.$-]{0,60}( +(\[[^\]]{0,60}\]|<[^>]{0,60}>)(\.{2,3})?)+$/.test(line.trim());
}

export function parseHelp(text: string, options?: ParseHelpOptions): CliSpec {
  try {
    return parseHelpUnsafe(typeof text === 'string' ? text : '', options);
  } catch {
    // Defensive: the parser is written not to throw, but a spec is always returned.
    return { name: sanitizeToolName(programBaseName(options?.fileName ?? 'tool')), description: '', options: [], positionals: [], subcommands: [] };
  }
}

function parseHelpUnsafe(text: string, parseOptions: ParseHelpOptions | undefined): CliSpec {
  const rawLines = helpLines(text);
  let goOptions: CliOption[] = [];
  let consumed = new Set<number>();
  if (looksLikeGoFlag(rawLines)) {
    const extraction = extractGoFlags(rawLines);
    goOptions = extraction.options;
    consumed = extraction.consumed;
  }
  const lines = rawLines.map((line, index) => (consumed.has(index) ? '' : expandTabs(line)));

  let programName: string | null = null;
  const goUsage = /^usage of (\S+):$/i.exec(rawLines[0]?.trim() ?? '');
  if (goUsage) programName = programBaseName(goUsage[1] ?? '');

  const usageForms: string[] = [];
  const entries: Entry[] = [];
  const paragraphs: Paragraph[] = [];
  let section: SectionKind = 'none';
  let current: Entry | null = null;
  let currentParagraph: Paragraph | null = null;
  let usageMode: 'header' | 'inline' | null = null;
  let seenUsage = false;
  let usageLineCount = 0;

  const closeParagraph = (): void => {
    if (currentParagraph !== null && currentParagraph.lines.length > 0) paragraphs.push(currentParagraph);
    currentParagraph = null;
  };

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (consumed.has(index)) {
      current = null;
      closeParagraph();
      continue;
    }
    const trimmed = line.trim();
    const indent = indentOf(line);
    if (trimmed.length === 0) {
      current = null;
      usageMode = null;
      closeParagraph();
      continue;
    }
    if (index === 0 && goUsage) continue;

    // Usage lines
    const usageMatch = /^\s*usage:\s*(.*)$/i.exec(line);
    if (usageMatch && (!seenUsage || usageMode === null)) {
      closeParagraph();
      current = null;
      seenUsage = true;
      const rest = (usageMatch[1] ?? '').trim();
      if (rest.length > 0) {
        usageForms.push(rest);
        usageMode = 'inline';
      } else {
        usageMode = 'header';
      }
      section = 'usage';
      continue;
    }
    if (usageMode !== null) {
      const orMatch = /^\s*or:\s+(.*)$/i.exec(line);
      if (orMatch) {
        usageForms.push((orMatch[1] ?? '').trim());
        continue;
      }
      if (indent > 0 && !OPTION_START.test(trimmed) && usageLineCount < MAX_USAGE_LINES) {
        usageLineCount += 1;
        const firstWord = /^\S*/.exec(trimmed)?.[0] ?? '';
        const lastForm = usageForms[usageForms.length - 1];
        const programOfLast = lastForm === undefined ? undefined : /^\S*/.exec(lastForm)?.[0];
        if (usageMode === 'header' || lastForm === undefined || firstWord === programOfLast) usageForms.push(trimmed);
        else if (lastForm.length < MAX_USAGE_FORM_CHARS) usageForms[usageForms.length - 1] = `${lastForm} ${trimmed}`;
        continue;
      }
      usageMode = null;
      section = 'none';
    }
    if (index === 0 && !seenUsage && looksLikeBareUsage(line)) {
      usageForms.push(trimmed);
      seenUsage = true;
      continue;
    }

    const header = SECTION_HEADER.exec(line);
    if (header && !OPTION_START.test(trimmed)) {
      closeParagraph();
      current = null;
      section = classifySection(header[1] ?? '');
      if (section === 'usage') {
        usageMode = 'header';
        seenUsage = true;
      }
      continue;
    }

    // Continuation of the current entry
    if (current !== null) {
      const continuation = indent > current.indent + 2;
      const startsOption = OPTION_START.test(trimmed) && (current.descriptionColumn === null ? indent <= current.indent + 2 : indent < current.descriptionColumn - 2);
      if (continuation && !startsOption) {
        if (current.descriptionColumn === null && current.description.length === 0) current.descriptionColumn = indent;
        if (current.description.length < 40) current.description.push(trimmed);
        continue;
      }
    }

    if (OPTION_START.test(trimmed) && section !== 'commands' && section !== 'positionals' && entries.length < MAX_OPTIONS * 2) {
      const head = parseOptionHead(trimmed);
      if (head !== null) {
        closeParagraph();
        const restOffset = head.rest.length > 0 ? line.lastIndexOf(head.rest.slice(0, 40)) : -1;
        current = {
          kind: 'option',
          indent,
          descriptionColumn: restOffset > indent ? restOffset : null,
          head: trimmed,
          option: head,
          description: [],
        };
        entries.push(current);
        continue;
      }
    }
    if ((section === 'positionals' || section === 'commands') && indent >= 1 && indent <= 12) {
      closeParagraph();
      const gap = /\s{2,}/.exec(trimmed);
      const headText = gap ? trimmed.slice(0, gap.index) : trimmed;
      const rest = gap ? trimmed.slice(gap.index).trim() : '';
      current = {
        kind: section === 'positionals' ? 'positional' : 'command',
        indent,
        descriptionColumn: gap ? indent + (gap.index + gap[0].length) : null,
        head: headText,
        option: null,
        description: rest.length > 0 ? [rest] : [],
      };
      entries.push(current);
      continue;
    }

    // Prose
    current = null;
    if (currentParagraph === null) currentParagraph = { lines: [], afterUsage: seenUsage, afterEntries: entries.length > 0 };
    if (currentParagraph.lines.length < 40) currentParagraph.lines.push(trimmed);
  }
  closeParagraph();

  // Options
  const parsedOptions: CliOption[] = [...goOptions];
  for (const entry of entries) {
    if (entry.kind !== 'option') continue;
    const option = optionFromEntry(entry);
    if (option !== null) parsedOptions.push(option);
  }
  const seenLongs = new Set<string>();
  const seenShorts = new Set<string>();
  const optionsOut: CliOption[] = [];
  for (const option of parsedOptions) {
    if (isHelpOrVersion(option)) continue;
    if (option.long !== null && seenLongs.has(option.long)) continue;
    if (option.long === null && option.short !== null && seenShorts.has(option.short)) continue;
    if (option.long !== null) seenLongs.add(option.long);
    if (option.short !== null) seenShorts.add(option.short);
    optionsOut.push(option);
    if (optionsOut.length >= MAX_OPTIONS) break;
  }

  // Usage
  const takesValue = (flag: string): boolean => {
    const name = flag.replace(/^-+/, '');
    const found = optionsOut.find((option) => option.long === name || option.short === name);
    return found?.takes_value ?? false;
  };
  const forms: UsageForm[] = usageForms.slice(0, 20).map((form) => parseUsageForm(form, takesValue));
  const firstForm = forms.find((form) => form.program !== null);
  if (programName === null && firstForm?.program) programName = programBaseName(firstForm.program);

  // Required options: written outside brackets in every usage form.
  if (forms.length > 0) {
    for (const option of optionsOut) {
      const spellings = [option.long !== null ? `${option.prefix ?? '--'}${option.long}` : null, option.short !== null ? `-${option.short}` : null];
      const everywhere = forms.every((form) => form.requiredOptions.some((spelling) => spellings.includes(spelling)));
      if (everywhere) option.required = true;
    }
  }

  // Subcommands
  let subcommands: CliSubcommand[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'command') continue;
    const command = commandFromEntry(entry);
    if (command !== null && !subcommands.some((existing) => existing.name === command.name)) subcommands.push(command);
  }
  const formsWithLiterals = forms.filter((form) => form.leadingLiterals.length > 0);
  const docoptCommands = subcommands.length === 0 && forms.length >= 2 && formsWithLiterals.length >= 2;
  if (docoptCommands) {
    for (const form of formsWithLiterals) {
      const name = form.leadingLiterals[0] ?? '';
      if (name !== 'help' && !subcommands.some((existing) => existing.name === name)) subcommands.push({ name, description: null });
    }
  }

  // Positionals
  let positionals: CliPositional[] = [];
  const sectionPositionals = entries
    .filter((entry) => entry.kind === 'positional')
    .map(positionalFromEntry)
    .filter((found): found is { positional: CliPositional; decorated: boolean } => found !== null);
  const usagePositionals: UsagePositional[] = docoptCommands ? [] : (firstForm?.positionals ?? []);
  const isCommandPlaceholder = (name: string): boolean =>
    subcommands.length > 0 && /^(command|cmd|subcommand|commands|args?)$/i.test(name);
  const normalized = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (sectionPositionals.length > 0) {
    for (const { positional, decorated } of sectionPositionals) {
      const fromUsage = usagePositionals.find((candidate) => normalized(candidate.name) === normalized(positional.name));
      if (fromUsage && !decorated) {
        positional.required = fromUsage.required;
        positional.variadic = fromUsage.variadic;
      }
      if (!isCommandPlaceholder(positional.name)) positionals.push(positional);
    }
  } else {
    for (const candidate of usagePositionals) {
      if (isCommandPlaceholder(candidate.name)) continue;
      if (subcommands.some((command) => command.name === candidate.name)) continue;
      positionals.push({ name: candidate.name, required: candidate.required, variadic: candidate.variadic });
    }
  }
  positionals = positionals.filter((positional, index) => positionals.findIndex((other) => other.name === positional.name) === index).slice(0, 50);
  subcommands = subcommands.slice(0, 200);

  // Description: the paragraph before the usage line, else the first paragraph after it.
  const before = paragraphs.find((paragraph) => !paragraph.afterUsage);
  const after = paragraphs.find((paragraph) => paragraph.afterUsage && !paragraph.afterEntries) ?? paragraphs.find((paragraph) => paragraph.afterUsage);
  const chosen = seenUsage ? (before ?? after) : paragraphs[0];
  const description = chosen ? clampDescription(chosen.lines.join(' ')) : '';

  if (programName === null) {
    const firstLine = lines.find((line) => line.trim().length > 0)?.trim() ?? '';
    const firstWord = /^([A-Za-z][\w.-]{0,63})(?=[\s:]|$)/.exec(firstLine)?.[1];
    if (firstWord !== undefined) programName = programBaseName(firstWord);
  }
  if (programName === null && parseOptions?.fileName) programName = programBaseName(parseOptions.fileName);
  const name = sanitizeToolName(programName ?? parseOptions?.fileName ?? 'tool');

  return { name, description, options: optionsOut, positionals, subcommands };
}
