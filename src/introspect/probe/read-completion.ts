/**
 * Readers of completion protocols' answers (cobra `__complete`, click/typer `zsh_complete`, yargs
 * `--get-yargs-completions`, urfave `--generate-bash-completion`). Each returns the items the
 * program offered, or undefined when the output is not that protocol's answer (a program that does
 * not speak it printed something else). Bounded and linear (text.ts).
 */
import { MAX_PROBE_VALUES, cleanValue, probeLines } from './text.ts';

export interface CompletionItem {
  value: string;
  description: string | null;
}

/** cobra's directive bits (ShellCompDirective). */
export const COBRA_DIRECTIVE = Object.freeze({ error: 1, noSpace: 2, noFileComp: 4, filterFileExt: 8, filterDirs: 16, keepOrder: 32 });

export interface CobraCompletion {
  directive: number;
  items: CompletionItem[];
}

function item(value: string, description: string | undefined): CompletionItem | undefined {
  const clean = cleanValue(value);
  if (clean === undefined) return undefined;
  const text = description?.trim();
  return { value: clean, description: text !== undefined && text.length > 0 && text !== '_' ? text.slice(0, 500) : null };
}

function pushItem(items: CompletionItem[], next: CompletionItem | undefined): void {
  if (next !== undefined && items.length < MAX_PROBE_VALUES && !items.some((entry) => entry.value === next.value)) items.push(next);
}

/**
 * cobra's answer: `value<TAB>description` lines, then a `:<directive>` line last. An error
 * directive, or one that asks the shell for files or directories (the lines are then extensions or
 * nothing), yields no items.
 */
export function readCobraComplete(stdout: string): CobraCompletion | undefined {
  const lines = probeLines(stdout);
  let end = lines.length - 1;
  while (end >= 0 && lines[end] === '') end -= 1;
  const last = end >= 0 ? lines[end] : undefined;
  const match = last === undefined ? null : /^:(\d{1,4})$/.exec(last);
  if (match === null) return undefined;
  const directive = Number(match[1]);
  if ((directive & (COBRA_DIRECTIVE.error | COBRA_DIRECTIVE.filterFileExt | COBRA_DIRECTIVE.filterDirs)) !== 0) return { directive, items: [] };
  const items: CompletionItem[] = [];
  for (const line of lines.slice(0, end)) {
    if (line.trim() === '') continue;
    const tab = line.indexOf('\t');
    pushItem(items, tab === -1 ? item(line, undefined) : item(line.slice(0, tab), line.slice(tab + 1)));
  }
  return { directive, items };
}

/**
 * click's `zsh_complete` answer: per item three lines, its type (`plain`, `dir`, `file`), value and
 * help (`_` for none). `dir`/`file` items mean "complete a path" and carry no value. Output that
 * breaks the triple shape is not click's.
 */
export function readClickZsh(stdout: string): CompletionItem[] | undefined {
  const lines = probeLines(stdout);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length % 3 !== 0) return undefined;
  const items: CompletionItem[] = [];
  for (let index = 0; index < lines.length; index += 3) {
    const kind = lines[index];
    if (kind !== 'plain' && kind !== 'dir' && kind !== 'file') return undefined;
    if (kind === 'plain') pushItem(items, item(lines[index + 1] ?? '', lines[index + 2]));
  }
  return items;
}

/** yargs' answer: one item a line, `value` or (zsh form) `value:description`. */
export function readYargsCompletions(stdout: string): CompletionItem[] {
  const items: CompletionItem[] = [];
  for (const line of probeLines(stdout)) {
    if (line.trim() === '') continue;
    const colon = line.search(/(?<!\\):/);
    pushItem(items, colon > 0 ? item(line.slice(0, colon).replace(/\\:/g, ':'), line.slice(colon + 1)) : item(line, undefined));
  }
  return items;
}

/** urfave's answer: one name a line (`name:description` in its zsh form). */
export function readUrfaveCompletions(stdout: string): CompletionItem[] {
  return readYargsCompletions(stdout);
}
