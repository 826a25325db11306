/**
 * Secrets: `<secret_ref:NAME>` placeholders in a tool's declared secret parameters are replaced
 * from the secret source right before `execute`. Values never leave through results or logs:
 * `redactSecrets` replaces every value used in a call with `[REDACTED:NAME]`.
 */
import { readFileSync } from 'node:fs';
import { ToolHostError } from './errors.ts';

export const SECRET_ENV_PREFIX = 'TOOLHOST_SECRET_';
export const SECRET_REF_PATTERN = /<secret_ref:([A-Za-z0-9_.-]+)>/g;

export interface SecretsResolver {
  /** The secret's value, or undefined when the source has no such secret. */
  resolve(name: string): string | undefined;
}

export interface SecretsSourceOptions {
  /** Environment to read `TOOLHOST_SECRET_<NAME>` from (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** A JSON file `{ "NAME": "value" }`; its entries win over the environment. */
  file?: string;
}

export function createSecretsResolver(options: SecretsSourceOptions = {}): SecretsResolver {
  const env = options.env ?? process.env;
  const fromFile = options.file ? readSecretsFile(options.file) : new Map<string, string>();
  return {
    resolve(name) {
      return fromFile.get(name) ?? env[SECRET_ENV_PREFIX + name];
    },
  };
}

function readSecretsFile(file: string): Map<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ToolHostError('SECRET_SOURCE_INVALID', `Cannot read secrets file ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ToolHostError('SECRET_SOURCE_INVALID', `Secrets file ${file} must hold a JSON object of name to string value`);
  }
  const entries = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') {
      throw new ToolHostError('SECRET_SOURCE_INVALID', `Secrets file ${file}: the value of "${name}" must be a string`);
    }
    entries.set(name, value);
  }
  return entries;
}

/** Names of every `<secret_ref:NAME>` found anywhere inside a value. */
export function findSecretRefs(value: unknown): string[] {
  const names: string[] = [];
  visitStrings(value, (text) => {
    for (const match of text.matchAll(SECRET_REF_PATTERN)) names.push(match[1] as string);
  });
  return names;
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) value.forEach((item) => visitStrings(item, visit));
  else if (typeof value === 'object' && value !== null) Object.values(value).forEach((item) => visitStrings(item, visit));
}

export type SecretSubstitution =
  | { ok: true; value: unknown; used: Map<string, string> }
  | { ok: false; missing: string[] };

/** Replaces placeholders inside a value (deeply) with secret values. */
export function substituteSecrets(value: unknown, resolver: SecretsResolver): SecretSubstitution {
  const used = new Map<string, string>();
  const missing: string[] = [];
  const replace = (input: unknown): unknown => {
    if (typeof input === 'string') {
      return input.replace(SECRET_REF_PATTERN, (placeholder, name: string) => {
        const secret = resolver.resolve(name);
        if (secret === undefined) {
          missing.push(name);
          return placeholder;
        }
        used.set(name, secret);
        return secret;
      });
    }
    if (Array.isArray(input)) return input.map(replace);
    if (typeof input === 'object' && input !== null) {
      return Object.fromEntries(Object.entries(input).map(([key, item]) => [key, replace(item)]));
    }
    return input;
  };
  const replaced = replace(value);
  return missing.length > 0 ? { ok: false, missing: [...new Set(missing)] } : { ok: true, value: replaced, used };
}

/** Where a text was cut short, so that part of a secret may sit at that edge. */
export interface CutEdges {
  /** The text lost its beginning (a tail): it may start with the end of a secret. */
  cutAtStart?: boolean;
  /** The text lost its end (output limit): it may end with the start of a secret. */
  cutAtEnd?: boolean;
}

type SecretEntry = readonly [name: string, value: string];

/** Longest values first so a secret that contains another is redacted whole. */
function orderedSecrets(used: ReadonlyMap<string, string>): SecretEntry[] {
  return [...used.entries()].filter(([, secret]) => secret.length > 0).sort((a, b) => b[1].length - a[1].length);
}

function redactWhole(text: string, secrets: readonly SecretEntry[]): string {
  let redacted = text;
  for (const [name, secret] of secrets) redacted = redacted.split(secret).join(`[REDACTED:${name}]`);
  return redacted;
}

/** Replaces a partial secret left at a cut edge: the end of a text ending in a secret's start, and so on. */
function redactCutEdges(text: string, secrets: readonly SecretEntry[], edges: CutEdges): string {
  let redacted = text;
  for (const [name, secret] of secrets) {
    const marker = `[REDACTED:${name}]`;
    if (edges.cutAtEnd) {
      for (let length = Math.min(secret.length - 1, redacted.length); length >= 1; length--) {
        if (redacted.endsWith(secret.slice(0, length))) {
          redacted = redacted.slice(0, redacted.length - length) + marker;
          break;
        }
      }
    }
    if (edges.cutAtStart) {
      for (let length = Math.min(secret.length - 1, redacted.length); length >= 1; length--) {
        if (redacted.startsWith(secret.slice(secret.length - length))) {
          redacted = marker + redacted.slice(length);
          break;
        }
      }
    }
  }
  return redacted;
}

/**
 * Redacts one text that a tool is about to cut or has cut: whole occurrences first, then a partial
 * secret at each cut edge. Tools that truncate output call this (through `ToolContext.redactText`)
 * before cutting, so a cut can never leave a secret's prefix or suffix behind.
 */
export function redactText(text: string, used: ReadonlyMap<string, string>, edges: CutEdges = {}): string {
  if (used.size === 0) return text;
  const secrets = orderedSecrets(used);
  return redactCutEdges(redactWhole(text, secrets), secrets, edges);
}

/**
 * Replaces every occurrence of each used secret value with `[REDACTED:NAME]`, deeply, in object keys
 * as well as values. Callers bound the depth first (json-limits); encoded forms of a secret (base64,
 * hex, split across values) are out of scope for string redaction.
 */
export function redactSecrets<T>(value: T, used: ReadonlyMap<string, string>): T {
  if (used.size === 0) return value;
  const secrets = orderedSecrets(used);
  const redact = (input: unknown): unknown => {
    if (typeof input === 'string') return redactWhole(input, secrets);
    if (Array.isArray(input)) return input.map(redact);
    if (typeof input === 'object' && input !== null) {
      return Object.fromEntries(Object.entries(input).map(([key, item]) => [redactWhole(key, secrets), redact(item)]));
    }
    return input;
  };
  return redact(value) as T;
}
