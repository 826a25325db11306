/**
 * One TypeScript declaration file per tool (`tools/<name>.d.ts`), for code mode: an agent lists the
 * files, reads only the tools it needs, and calls them from `run_code` as `await tools.<name>(args)`.
 *
 * The types come from the tool's *normalized* JSON Schema (see normalize.ts: no `$ref`, no
 * definitions), so a small emitter covers it: objects (required / optional properties, additional
 * properties as an index signature), arrays and tuples, enums and consts, unions (`anyOf`/`oneOf`,
 * type lists), intersections (`allOf`) and primitives; anything else is `unknown`. A library such as
 * json-schema-to-typescript would bring a formatter and a `$ref` resolver this subset does not need.
 */
import type { JsonSchema } from './normalize.ts';

/** What the emitter reads of a tool. */
export interface DeclarableTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
}

/** Path of a tool's declaration file in the tree (`GET /v1/tools/tree/{path}`). */
export function declarationPath(toolName: string): string {
  return `tools/${toolName}.d.ts`;
}

/** Words a function cannot be named (reserved in strict-mode modules). */
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for function if ' +
    'implements import in instanceof interface let new null package private protected public return static super switch this ' +
    'throw true try typeof var void while with yield await'
  ).split(' '),
);

/** A tool name as a TypeScript identifier: names may hold `-` or start with a digit; those are rewritten. */
export function functionIdentifier(toolName: string): string {
  let identifier = toolName.replace(/[^A-Za-z0-9_$]/g, '_');
  if (/^[0-9]/.test(identifier)) identifier = `_${identifier}`;
  return RESERVED.has(identifier) ? `${identifier}_` : identifier;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Text safe inside a `/** … *\/` comment. */
function commentText(text: string): string {
  return text.replace(/\*\//g, '*\\/');
}

function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : 'unknown';
}

function union(parts: readonly string[]): string {
  const unique = [...new Set(parts)];
  if (unique.length === 0) return 'never';
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 1 ? (unique[0] as string) : unique.map((part) => (part.includes('=>') ? `(${part})` : part)).join(' | ');
}

/** Facts of a property that TypeScript cannot say, for its JSDoc: default, bounds, format, pattern. */
function constraintNotes(schema: JsonSchema): string[] {
  const notes: string[] = [];
  const describe = (keyword: string, label: string): void => {
    const value = schema[keyword];
    if (value !== undefined && (typeof value !== 'object' || value === null)) notes.push(`${label} ${JSON.stringify(value)}`);
  };
  describe('minimum', 'Minimum:');
  describe('exclusiveMinimum', 'Greater than');
  describe('maximum', 'Maximum:');
  describe('exclusiveMaximum', 'Less than');
  describe('minLength', 'Min length:');
  describe('maxLength', 'Max length:');
  describe('minItems', 'Min items:');
  describe('maxItems', 'Max items:');
  describe('pattern', 'Pattern:');
  describe('format', 'Format:');
  if (schema['type'] === 'integer') notes.push('integer');
  return notes;
}

/** JSDoc lines of a property: its description, its constraints and its default. */
function propertyDoc(schema: unknown): string[] {
  if (!isSchemaObject(schema)) return [];
  const lines: string[] = [];
  if (typeof schema['description'] === 'string' && schema['description'] !== '') lines.push(...schema['description'].split('\n'));
  const notes = constraintNotes(schema);
  if (notes.length > 0) lines.push(notes.join('; '));
  if ('default' in schema) lines.push(`@default ${JSON.stringify(schema['default'])}`);
  return lines;
}

function docBlock(lines: readonly string[], indent: string): string {
  if (lines.length === 0) return '';
  if (lines.length === 1) return `${indent}/** ${commentText(lines[0] as string)} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${commentText(line)}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function objectType(schema: JsonSchema, indent: string): string {
  const properties = isSchemaObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set(Array.isArray(schema['required']) ? schema['required'].filter((name): name is string => typeof name === 'string') : []);
  const inner = `${indent}  `;
  const members = Object.entries(properties).map(
    ([name, property]) => `${docBlock(propertyDoc(property), inner)}${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`,
  );
  const additional = schema['additionalProperties'];
  if (additional === true || isSchemaObject(additional)) {
    members.push(`${inner}[key: string]: ${additional === true ? 'unknown' : typeOf(additional, inner)};`);
  }
  return members.length === 0 ? (additional === false ? 'Record<string, never>' : '{}') : `{\n${members.join('\n')}\n${indent}}`;
}

function arrayType(schema: JsonSchema, indent: string): string {
  const prefix = schema['prefixItems'];
  if (Array.isArray(prefix)) return `[${prefix.map((item) => typeOf(item, indent)).join(', ')}]`;
  const items = schema['items'];
  if (Array.isArray(items)) return `[${items.map((item) => typeOf(item, indent)).join(', ')}]`;
  const element = items === undefined ? 'unknown' : typeOf(items, indent);
  return /^[A-Za-z0-9_."]+$/.test(element) || element.startsWith('{') ? `${element}[]` : `Array<${element}>`;
}

function primitive(type: string, schema: JsonSchema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return arrayType(schema, indent);
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

/** The TypeScript type of a normalized JSON Schema (`indent`: the nesting of the line it starts on). */
export function typeOf(schema: unknown, indent = ''): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (!isSchemaObject(schema)) return 'unknown';
  if ('const' in schema) return literal(schema['const']);
  if (Array.isArray(schema['enum'])) return union(schema['enum'].map(literal));
  const alternatives = Array.isArray(schema['anyOf']) ? schema['anyOf'] : Array.isArray(schema['oneOf']) ? schema['oneOf'] : undefined;
  if (alternatives) return union(alternatives.map((alternative) => typeOf(alternative, indent)));
  if (Array.isArray(schema['allOf'])) {
    const parts = schema['allOf'].map((part) => typeOf(part, indent)).filter((part) => part !== 'unknown');
    return parts.length === 0 ? 'unknown' : parts.join(' & ');
  }
  const type = schema['type'];
  if (Array.isArray(type)) return union(type.filter((entry): entry is string => typeof entry === 'string').map((entry) => primitive(entry, schema, indent)));
  if (typeof type === 'string') return primitive(type, schema, indent);
  if (isSchemaObject(schema['properties'])) return objectType(schema, indent);
  return 'unknown';
}

/** A plausible value for an example call: the schema's own example or default, else one of its type. */
function exampleValue(schema: unknown, name: string): unknown {
  if (!isSchemaObject(schema)) return null;
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
  if ('default' in schema) return schema['default'];
  if ('const' in schema) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  const alternatives = Array.isArray(schema['anyOf']) ? schema['anyOf'] : Array.isArray(schema['oneOf']) ? schema['oneOf'] : undefined;
  if (alternatives && alternatives.length > 0) return exampleValue(alternatives[0], name);
  const type = Array.isArray(schema['type']) ? schema['type'].find((entry) => entry !== 'null') : schema['type'];
  switch (type) {
    case 'string':
      return `<${name}>`;
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    case 'integer':
      return typeof schema['minimum'] === 'number' ? Math.ceil(schema['minimum']) : 1;
    case 'boolean':
      return true;
    case 'array':
      return [exampleValue(schema['items'], name)];
    case 'object':
      return exampleArguments(schema);
    default:
      return null;
  }
}

/** Arguments of an example call: every required property, or the first one when none is required. */
export function exampleArguments(schema: JsonSchema): Record<string, unknown> {
  const properties = isSchemaObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'].filter((name): name is string => typeof name === 'string' && name in properties) : [];
  const names = required.length > 0 ? required : Object.keys(properties).slice(0, 1);
  return Object.fromEntries(names.map((name) => [name, exampleValue(properties[name], name)]));
}

/** How code calls the tool: `tools.name` when the name is an identifier, else `tools["name"]`. */
function accessor(toolName: string): string {
  return IDENTIFIER.test(toolName) ? `tools.${toolName}` : `tools[${JSON.stringify(toolName)}]`;
}

const TOOL_RESULT_DECLARATION =
  '/** What every tool call resolves to. `content` is text (JSON.parse it when the tool returns JSON). */\n' +
  'export interface ToolResult {\n  content: string;\n  is_error: boolean;\n  metadata?: Record<string, unknown>;\n}\n';

/** The declaration file of one tool: ToolResult, then the tool as a typed async function with JSDoc and an example. */
export function toolDeclaration(tool: DeclarableTool): string {
  const identifier = functionIdentifier(tool.name);
  const example = `const result = await ${accessor(tool.name)}(${JSON.stringify(exampleArguments(tool.inputSchema))});`;
  const doc = [
    ...tool.description.split('\n'),
    ...(identifier === tool.name ? [] : ['', `The tool is named "${tool.name}"; call it as ${accessor(tool.name)}(args).`]),
    '',
    '@example',
    example,
  ];
  const args = typeOf({ ...tool.inputSchema, type: 'object' });
  return (
    `// ${declarationPath(tool.name)}: generated by toolhost from the tool's input schema.\n` +
    `// Call it inside run_code as \`await ${accessor(tool.name)}(args)\`.\n\n` +
    `${TOOL_RESULT_DECLARATION}\n` +
    `${docBlock(doc, '')}export declare function ${identifier}(args: ${args}): Promise<ToolResult>;\n`
  );
}
