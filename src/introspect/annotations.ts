/**
 * Facts that help texts state inside an option's description: defaults, choices, required,
 * repeatable and type tags, in the spellings of the common help styles.
 */
import type { CliValueType } from './spec.ts';

export interface DescriptionFacts {
  /** The description with trailing annotation groups (`[default: x]`, `(default x)`, `[required]`…) removed. */
  description: string;
  defaultText: string | null;
  defaultQuoted: boolean;
  choices: string[] | null;
  required: boolean;
  repeatable: boolean;
  typeHint: CliValueType | null;
}

const TYPE_TAGS: Record<string, CliValueType> = { string: 'string', number: 'number', boolean: 'boolean', count: 'integer' };

function unquote(text: string): { value: string; quoted: boolean } {
  const trimmed = text.trim();
  if (trimmed.length >= 2) {
    const first = trimmed[0];
    const last = trimmed[trimmed.length - 1];
    if ((first === '"' || first === "'" || first === '`') && last === first) {
      return { value: trimmed.slice(1, -1).replace(/\\(["\\])/g, '$1'), quoted: true };
    }
  }
  return { value: trimmed, quoted: false };
}

function splitChoices(text: string): string[] {
  return text
    .split(/,|\|/)
    .map((part) => unquote(part).value)
    .filter((part) => part.length > 0 && part.length <= 100);
}

/** Bracket or parenthesis groups in the text, without nesting; bounded scan. */
function groups(text: string): { open: string; body: string; start: number; end: number }[] {
  const found: { open: string; body: string; start: number; end: number }[] = [];
  const pattern = /[[(]([^[\]()]{0,400})[\])]/g;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const open = match[0][0] ?? '';
    const close = match[0][match[0].length - 1];
    if ((open === '[' && close === ']') || (open === '(' && close === ')')) {
      found.push({ open, body: match[1] ?? '', start: match.index, end: match.index + match[0].length });
    }
  }
  return found;
}

const ANNOTATION_START = /^\s*(default|possible values|choices|required|env(ironment)? var|aliases?|deprecated|string|number|boolean|array|count)\b/i;
const RANGE_BODY = /^[\d.\s<=>x+-]+$/;

function isAnnotationGroup(open: string, body: string): boolean {
  if (RANGE_BODY.test(body) && body.includes('x')) return true;
  if (open === '(') return /^\s*(default|choices|required)\b/i.test(body);
  return ANNOTATION_START.test(body);
}

const REPEATABLE_PHRASES =
  /\b(may|can) be (repeated|given (several|multiple|more than once) times?|specified (several|multiple) times|used (several|multiple) times|given more than once|specified more than once)|\brepeatable\b|\brepeat(ed)? (for|to give) (several|multiple)|\bmultiple times\b/i;

export function extractDescriptionFacts(text: string): DescriptionFacts {
  let description = text.trim();
  let defaultText: string | null = null;
  let defaultQuoted = false;
  let choices: string[] | null = null;
  let required = false;
  let repeatable = REPEATABLE_PHRASES.test(description);
  let typeHint: CliValueType | null = null;

  for (const group of groups(description)) {
    const body = group.body.trim();
    for (const part of body.split(/;\s*/)) {
      const defaultMatch = /^default(?::\s*|=|\s+)([\s\S]*)$/i.exec(part.trim());
      if (defaultMatch && defaultText === null && group.open === '[') {
        const unquoted = unquote(defaultMatch[1] ?? '');
        defaultText = unquoted.value;
        defaultQuoted = unquoted.quoted;
      }
    }
    if (group.open === '(') {
      // commander: (choices: "a", "b", default: "a"); GNU/Go/argparse: (default x), (default: x)
      const choicesMatch = /^choices:\s*(.*?)(?:,\s*default:\s*(.*))?$/i.exec(body);
      if (choicesMatch) {
        choices = choices ?? splitChoices(choicesMatch[1] ?? '');
        if (choicesMatch[2] !== undefined && defaultText === null) {
          const unquoted = unquote(choicesMatch[2]);
          defaultText = unquoted.value;
          defaultQuoted = unquoted.quoted;
        }
      }
      const defaultMatch = /^default(?::\s*(.*)|=(.*)|\s+("[^"]*"|'[^']*'|\S+))$/i.exec(body);
      if (defaultMatch && defaultText === null) {
        const unquoted = unquote(defaultMatch[1] ?? defaultMatch[2] ?? defaultMatch[3] ?? '');
        defaultText = unquoted.value;
        defaultQuoted = unquoted.quoted;
      }
      if (/^required$/i.test(body)) required = true;
    } else {
      const possible = /^(?:possible values|choices):\s*(.*)$/i.exec(body);
      if (possible) choices = choices ?? splitChoices(possible[1] ?? '');
      if (/^required$/i.test(body)) required = true;
      const tag = TYPE_TAGS[body.toLowerCase()];
      if (tag !== undefined) typeHint = tag;
      if (/^array$/i.test(body)) repeatable = true;
      if (/^count$/i.test(body)) repeatable = true;
    }
  }

  if (choices === null) {
    const oneOf = /\bone of:?\s+([\w.-]+(?:\s*(?:,|\bor\b)\s*[\w.-]+){1,30})/i.exec(description);
    if (oneOf) choices = (oneOf[1] ?? '').split(/\s*(?:,|\bor\b)\s*/).filter((choice) => choice.length > 0);
  }
  if (defaultText === null) {
    const plain = /\bdefault(?:s to|:)\s+("[^"]{0,200}"|'[^']{0,200}'|[^\s,;)]{1,200})/i.exec(description);
    if (plain) {
      const unquoted = unquote((plain[1] ?? '').replace(/\.$/, ''));
      defaultText = unquoted.value;
      defaultQuoted = unquoted.quoted;
    }
  }

  // Strip trailing annotation groups (and a trailing period after them).
  for (let guard = 0; guard < 10; guard += 1) {
    const trailing = /\s*([[(])([^[\]()]{0,400})([\])])\.?\s*$/.exec(description);
    if (!trailing) break;
    const open = trailing[1] ?? '';
    if (!isAnnotationGroup(open, trailing[2] ?? '')) break;
    description = description.slice(0, trailing.index).trimEnd();
  }
  return { description, defaultText, defaultQuoted, choices, required, repeatable, typeHint };
}
