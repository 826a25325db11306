/**
 * Scores the choices toolhost found on the real-CLI set against labels made blind to the parser
 * (`truth/choices.json`: every option or positional that accepts only a closed set of values, taken
 * from the program's source or its own error message, with where each was found).
 *
 * Reads each tool's `inspect --json` report that `npm run bench:real` wrote (the real loader: help
 * readers plus probes), so run the bench first. Prints, per tool and in total: labelled choice sets,
 * found (the inferred `choices` equal the labelled values as a set), found with the help's
 * spellings only (where the program accepts more than its help prints), partly found (another non-empty
 * overlap), missed, and invented (an option of a checked command with inferred choices where the labels
 * have none). A bench, not a test: it asserts nothing.
 *
 * `node --import tsx test/real-clis/score-choices.ts [inspect-folder]` (default
 * ~/.cache/toolhost-real-clis/inspect, or REAL_CLIS_CACHE/inspect).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface TruthChoice {
  tool: string;
  command: string[];
  option: string;
  values: string[];
  /** What the help prints when it is fewer spellings than the program accepts. */
  help_values?: string[];
  evidence: string;
}

interface Truth {
  programs: Record<string, { checked_commands: string[][] }>;
  choices: TruthChoice[];
}

interface SpecOption {
  long: string | null;
  short: string | null;
  aliases?: string[];
  choices: string[] | null;
}

interface SpecCommand {
  name: string;
  options?: SpecOption[];
  subcommands?: SpecCommand[];
}

interface Spec {
  options: SpecOption[];
  subcommands?: SpecCommand[];
}

const here = dirname(fileURLToPath(import.meta.url));
const cache = process.env['REAL_CLIS_CACHE'] ?? join(homedir(), '.cache', 'toolhost-real-clis');
const inspectFolder = process.argv[2] ?? join(cache, 'inspect');
const truth = JSON.parse(readFileSync(join(here, 'truth', 'choices.json'), 'utf8')) as Truth;

function optionNames(option: SpecOption): string[] {
  const names: string[] = [];
  if (option.long) names.push(`--${option.long}`);
  if (option.short) names.push(option.short.startsWith('-') ? option.short : `-${option.short}`);
  for (const alias of option.aliases ?? []) names.push(alias.startsWith('-') ? alias : alias.length === 1 ? `-${alias}` : `--${alias}`);
  return names;
}

/** The options that apply at a command path: the command's own, then every ancestor's (the root's last). */
function optionsAt(spec: Spec, path: readonly string[]): SpecOption[] | undefined {
  const layers: SpecOption[][] = [spec.options];
  let commands = spec.subcommands ?? [];
  const joined = path.join(' ');
  // subcommands may be named by their whole path ("boot enable") or nested
  const flat = commands.find((command) => command.name === joined);
  if (flat) return [...(flat.options ?? []), ...spec.options];
  for (const word of path) {
    const next = commands.find((command) => command.name === word);
    if (!next) return undefined;
    layers.unshift(next.options ?? []);
    commands = next.subcommands ?? [];
  }
  return layers.flat();
}

const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && new Set([...a, ...b]).size === a.length;

interface Row {
  tool: string;
  labelled: number;
  found: number;
  partly: number;
  /** Found with the help's spellings (`help_values`) where the program accepts more. */
  helpSpellings: number;
  missed: string[];
  invented: string[];
}

const rows: Row[] = [];
for (const [tool, program] of Object.entries(truth.programs)) {
  const file = join(inspectFolder, `${tool}.json`);
  const row: Row = { tool, labelled: 0, found: 0, partly: 0, helpSpellings: 0, missed: [], invented: [] };
  rows.push(row);
  const labels = truth.choices.filter((choice) => choice.tool === tool);
  row.labelled = labels.length;
  if (!existsSync(file)) {
    row.missed.push(...labels.map((label) => `${[...label.command, label.option].join(' ')} (no inspect report)`));
    continue;
  }
  const spec = (JSON.parse(readFileSync(file, 'utf8')) as { spec: Spec }).spec;
  for (const label of labels) {
    const options = optionsAt(spec, label.command);
    const option = label.option.startsWith('positional:') ? undefined : options?.find((candidate) => optionNames(candidate).includes(label.option));
    const found = option?.choices ?? null;
    if (found && sameSet(found, label.values)) row.found += 1;
    else {
      if (found && label.help_values && sameSet(found, label.help_values)) row.helpSpellings += 1;
      else if (found && found.some((value) => label.values.includes(value))) row.partly += 1;
      row.missed.push(`${[...label.command, label.option].join(' ')}: labelled [${label.values.join(', ')}] (${label.evidence}), inferred ${found ? `[${found.join(', ')}]` : option ? 'none' : 'no such option'}`);
    }
  }
  for (const command of program.checked_commands) {
    const options = command.length === 0 ? spec.options : (spec.subcommands ?? []).find((sub) => sub.name === command.join(' '))?.options ?? [];
    for (const option of options) {
      if (!option.choices) continue;
      const names = optionNames(option);
      const labelled = labels.some((label) => label.command.join(' ') === command.join(' ') && names.includes(label.option));
      const labelledAtRoot = command.length > 0 && labels.some((label) => label.command.length === 0 && names.includes(label.option));
      if (!labelled && !labelledAtRoot) row.invented.push(`${[...command, names[0] ?? '?'].join(' ')} [${option.choices.join(', ')}]`);
    }
  }
}

const total = rows.reduce(
  (sum, row) => ({ labelled: sum.labelled + row.labelled, found: sum.found + row.found, helpSpellings: sum.helpSpellings + row.helpSpellings, partly: sum.partly + row.partly, invented: sum.invented + row.invented.length }),
  { labelled: 0, found: 0, helpSpellings: 0, partly: 0, invented: 0 },
);
console.log(`inspect reports: ${inspectFolder}`);
console.log('| tool | labelled choice sets | found (exact set) | found with only the help\'s spellings | partly | invented |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(`| ${row.tool} | ${row.labelled} | ${row.found} | ${row.helpSpellings} | ${row.partly} | ${row.invented.length} |`);
const percent = (count: number): string => (total.labelled === 0 ? '0' : ((100 * count) / total.labelled).toFixed(1));
console.log(`| **total** | ${total.labelled} | ${total.found} (${percent(total.found)}%) | ${total.helpSpellings} (exact or these: ${percent(total.found + total.helpSpellings)}%) | ${total.partly} | ${total.invented} |`);
for (const row of rows) {
  for (const miss of row.missed) console.log(`missed  ${row.tool} ${miss}`);
  for (const invented of row.invented) console.log(`invented ${row.tool} ${invented}`);
}
