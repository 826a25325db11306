// A form generated from a tool's JSON Schema (the normalized inputSchema toolhost serves): strings,
// numbers, integers, booleans, enums, arrays and objects get their own controls; anything else
// (unions, free-form objects) is edited as JSON. Every control has a <label> naming its parameter
// (nested ones by path: `filter.max`, `paths[2]`), and a validation error appears next to it.
//
// Validation here is for people: it checks what the form can get wrong (required, types, ranges,
// lengths, patterns, enums, item counts) before a call. The daemon validates every call again, and a
// refusal comes back as an is_error result, so nothing depends on this check being complete.

import { h } from './dom.js';

let formCounter = 0;

/**
 * @typedef {{ present: false } | { present: true, value: unknown }} FieldValue
 * @typedef {{ element: HTMLElement, read: () => FieldValue, validate: () => string[], write: (value: unknown) => void }} Field
 *   validate() shows or clears this field's errors (and its children's) and returns the messages.
 */

/** The schema of a value that may also be null: `{type: ['string', 'null']}` or `anyOf: [X, {type: 'null'}]`. */
export function withoutNull(schema) {
  if (schema === null || typeof schema !== 'object') return {};
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    if (types.length === 1) return { ...schema, type: types[0] };
  }
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[key])) {
      const options = schema[key].filter((option) => option?.type !== 'null');
      if (options.length === 1) {
        const { [key]: _dropped, ...rest } = schema;
        return { ...rest, ...options[0] };
      }
    }
  }
  return schema;
}

/** Which control a schema gets. */
export function controlKind(schema) {
  const s = withoutNull(schema);
  if (Array.isArray(s.enum) || 'const' in s) return 'enum';
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return s.items !== undefined && !Array.isArray(s.items) ? 'array' : 'json';
    case 'object':
      return s.properties !== undefined && Object.keys(s.properties).length > 0 ? 'object' : 'json';
    default:
      return 'json';
  }
}

const MULTILINE_NAMES = /(^|_)(content|text|body|old_string|new_string|script|stdin|input|patch|code|command)$/;

/**
 * Builds the form body for an object schema.
 * @param {Record<string, any>} schema
 * @returns {{ element: HTMLElement, read: () => Record<string, unknown>, validate: () => string[], write: (value: Record<string, unknown>) => void }}
 */
export function buildSchemaForm(schema) {
  const prefix = `f${++formCounter}`;
  const root = withoutNull(schema);
  if (controlKind(root) !== 'object') {
    const fields = h('div', { class: 'fields' }, h('p', { class: 'hint' }, 'This tool takes no parameters.'));
    return { element: fields, read: () => ({}), validate: () => [], write: () => undefined };
  }
  const field = objectField(prefix, null, root, true);
  return {
    element: field.element,
    read: () => {
      const value = field.read();
      return value.present ? /** @type {Record<string, unknown>} */ (value.value) : {};
    },
    validate: () => field.validate(),
    // Sets every field from an argument object (a tool's example call); a field it leaves out is cleared.
    write: (value) => field.write(value),
  };
}

function fieldId(prefix, path) {
  return `${prefix}-${(path ?? 'root').replace(/[^A-Za-z0-9_-]+/g, '_')}`;
}

/** The hint under a control: its description and default. */
function hint(id, schema) {
  const parts = [];
  if (typeof schema.description === 'string' && schema.description !== '') parts.push(schema.description);
  // Descriptions often state their default already ("Default: 30000."); say it once.
  if (schema.default !== undefined && !(typeof schema.description === 'string' && /\bdefault\b/i.test(schema.description))) parts.push(`Default: ${JSON.stringify(schema.default)}.`);
  return parts.length === 0 ? null : h('p', { class: 'hint', id: `${id}-hint` }, parts.join(' '));
}

/** The error line next to a control, and the function that shows or clears it. */
function errorSlot(id, control) {
  const slot = h('p', { class: 'field-error', id: `${id}-error`, hidden: true });
  const show = (messages) => {
    if (messages.length === 0) {
      slot.hidden = true;
      slot.textContent = '';
      control?.removeAttribute('aria-invalid');
    } else {
      slot.hidden = false;
      slot.textContent = messages.join(' ');
      control?.setAttribute('aria-invalid', 'true');
    }
    return messages;
  };
  return { slot, show };
}

function describedBy(id, schema) {
  return [hint(id, schema) === null ? null : `${id}-hint`, `${id}-error`].filter(Boolean).join(' ');
}

function labelFor(id, name, required) {
  return h('div', { class: 'label-row' }, h('label', { for: id }, name), required ? h('span', { class: 'required', title: 'required' }, 'required') : null);
}

/**
 * One control for `schema` at `path` (null for the root object).
 * @returns {Field}
 */
function fieldFor(prefix, path, schema, required) {
  const s = withoutNull(schema);
  switch (controlKind(s)) {
    case 'enum':
      return enumField(prefix, path, s, required);
    case 'string':
      return stringField(prefix, path, s, required);
    case 'number':
      return numberField(prefix, path, s, required);
    case 'boolean':
      return booleanField(prefix, path, s, required);
    case 'array':
      return arrayField(prefix, path, s, required);
    case 'object':
      return objectField(prefix, path, s, required);
    default:
      return jsonField(prefix, path, s, required);
  }
}

function stringField(prefix, path, schema, required) {
  const id = fieldId(prefix, path);
  const name = path ?? '';
  const multiline = MULTILINE_NAMES.test(name.replace(/.*[.\]]/, '')) || (schema.maxLength ?? 0) > 200;
  const attributes = {
    id,
    name,
    'aria-describedby': describedBy(id, schema),
    placeholder: schema.default === undefined ? null : String(schema.default),
    autocomplete: 'off',
    spellcheck: 'false',
  };
  const control = multiline ? h('textarea', { ...attributes, rows: 3 }) : h('input', { ...attributes, type: 'text' });
  const error = errorSlot(id, control);
  const read = () => {
    const text = control.value;
    if (text === '' && !required) return { present: false };
    return { present: true, value: text };
  };
  const validate = () => {
    const value = read();
    if (!value.present) return error.show([]);
    return error.show(stringProblems(String(value.value), schema));
  };
  const write = (value) => {
    control.value = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  };
  const element = h('div', { class: 'field' }, labelFor(id, name, required), control, hint(id, schema), error.slot);
  return { element, read, validate, write };
}

/** What is wrong with a string value under `schema`, as sentences. */
export function stringProblems(text, schema) {
  const problems = [];
  const length = [...text].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) {
    problems.push(schema.minLength === 1 ? 'Required: must not be empty.' : `Must be at least ${schema.minLength} characters.`);
  }
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) problems.push(`Must be at most ${schema.maxLength} characters.`);
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(text)) problems.push(`Must match the pattern ${schema.pattern}.`);
    } catch {
      // A pattern JavaScript cannot read: the daemon decides.
    }
  }
  return problems;
}

function numberField(prefix, path, schema, required) {
  const id = fieldId(prefix, path);
  const name = path ?? '';
  const integer = schema.type === 'integer';
  const control = h('input', {
    id,
    name,
    type: 'text',
    inputmode: integer ? 'numeric' : 'decimal',
    'aria-describedby': describedBy(id, schema),
    placeholder: schema.default === undefined ? null : String(schema.default),
    autocomplete: 'off',
  });
  const error = errorSlot(id, control);
  const read = () => {
    const text = control.value.trim();
    if (text === '') return { present: false };
    return { present: true, value: Number(text) };
  };
  const validate = () => {
    const text = control.value.trim();
    if (text === '') return error.show(required ? ['Required.'] : []);
    return error.show(numberProblems(text, schema));
  };
  const write = (value) => {
    control.value = typeof value === 'number' ? String(value) : '';
  };
  const element = h('div', { class: 'field' }, labelFor(id, name, required), control, hint(id, schema), error.slot);
  return { element, read, validate, write };
}

/** What is wrong with the text of a number field, as sentences. */
export function numberProblems(text, schema) {
  const value = Number(text);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) || !Number.isFinite(value)) {
    return [schema.type === 'integer' ? 'Must be a whole number.' : 'Must be a number.'];
  }
  const problems = [];
  if (schema.type === 'integer' && !Number.isInteger(value)) problems.push('Must be a whole number.');
  if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`Must be at least ${schema.minimum}.`);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) problems.push(`Must be greater than ${schema.exclusiveMinimum}.`);
  if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`Must be at most ${schema.maximum}.`);
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) problems.push(`Must be less than ${schema.exclusiveMaximum}.`);
  if (typeof schema.multipleOf === 'number' && schema.multipleOf > 0 && Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9) {
    problems.push(`Must be a multiple of ${schema.multipleOf}.`);
  }
  return problems;
}

function booleanField(prefix, path, schema, required) {
  const id = fieldId(prefix, path);
  const name = path ?? '';
  const control = h('input', { id, name, type: 'checkbox', 'aria-describedby': describedBy(id, schema), checked: schema.default === true });
  const error = errorSlot(id, control);
  // An optional flag left as its default is not sent, so the tool's own default applies.
  const read = () => {
    if (!required && control.checked === (schema.default === true)) return { present: false };
    return { present: true, value: control.checked };
  };
  const element = h(
    'div',
    { class: 'field field-boolean' },
    h('div', { class: 'label-row' }, control, h('label', { for: id }, name), required ? h('span', { class: 'required' }, 'required') : null),
    hint(id, schema),
    error.slot,
  );
  const write = (value) => {
    control.checked = typeof value === 'boolean' ? value : schema.default === true;
  };
  return { element, read, validate: () => error.show([]), write };
}

function enumField(prefix, path, schema, required) {
  const id = fieldId(prefix, path);
  const name = path ?? '';
  const values = Array.isArray(schema.enum) ? schema.enum : [schema.const];
  const control = h(
    'select',
    { id, name, 'aria-describedby': describedBy(id, schema) },
    h('option', { value: '' }, schema.default === undefined ? '(not set)' : `(default: ${JSON.stringify(schema.default)})`),
    values.map((value, index) => h('option', { value: String(index) }, typeof value === 'string' ? value : JSON.stringify(value))),
  );
  const error = errorSlot(id, control);
  const read = () => (control.value === '' ? { present: false } : { present: true, value: values[Number(control.value)] });
  const validate = () => error.show(required && control.value === '' ? ['Required: choose a value.'] : []);
  const write = (value) => {
    const index = value === undefined ? -1 : values.findIndex((candidate) => JSON.stringify(candidate) === JSON.stringify(value));
    control.value = index === -1 ? '' : String(index);
  };
  const element = h('div', { class: 'field' }, labelFor(id, name, required), control, hint(id, schema), error.slot);
  return { element, read, validate, write };
}

function jsonField(prefix, path, schema, required) {
  const id = fieldId(prefix, path);
  const name = path ?? '';
  const control = h('textarea', {
    id,
    name,
    rows: 3,
    class: 'json',
    'aria-describedby': describedBy(id, schema),
    placeholder: schema.default === undefined ? 'JSON value' : JSON.stringify(schema.default),
    spellcheck: 'false',
  });
  const error = errorSlot(id, control);
  const parse = () => {
    const text = control.value.trim();
    if (text === '') return { present: false };
    try {
      return { present: true, value: JSON.parse(text) };
    } catch (failure) {
      return { present: true, problem: `Must be valid JSON (${failure instanceof Error ? failure.message : String(failure)}).` };
    }
  };
  const read = () => {
    const parsed = parse();
    return parsed.present && 'value' in parsed ? { present: true, value: parsed.value } : { present: false };
  };
  const validate = () => {
    const parsed = parse();
    if (!parsed.present) return error.show(required ? ['Required.'] : []);
    if ('problem' in parsed) return error.show([parsed.problem]);
    const expected = schema.type;
    const actual = Array.isArray(parsed.value) ? 'array' : parsed.value === null ? 'null' : typeof parsed.value;
    const allowed = Array.isArray(expected) ? expected : expected === undefined ? [] : [expected];
    if (allowed.length > 0 && !allowed.includes(actual) && !(actual === 'number' && allowed.includes('integer'))) {
      return error.show([`Must be JSON of type ${allowed.join(' or ')}.`]);
    }
    return error.show([]);
  };
  const write = (value) => {
    control.value = value === undefined ? '' : JSON.stringify(value);
  };
  const element = h('div', { class: 'field' }, labelFor(id, name, required), control, hint(id, { ...schema, description: [schema.description, 'Enter JSON.'].filter(Boolean).join(' ') }), error.slot);
  return { element, read, validate, write };
}

function arrayField(prefix, path, schema, required) {
  const id = fieldId(prefix, path);
  const name = path ?? '';
  const itemSchema = withoutNull(schema.items ?? {});
  /** @type {Field[]} */
  const items = [];
  const list = h('ol', { class: 'array-items' });
  const error = errorSlot(id, null);
  let itemCounter = 0;
  // Labels follow positions, so after a removal the n-th item is `name[n]` again (nested labels too).
  const renumber = () => {
    items.forEach((item, index) => {
      for (const node of item.element.querySelectorAll('label, legend, button[aria-label]')) {
        const target = node.tagName === 'BUTTON' ? 'aria-label' : null;
        const text = target === null ? node.firstChild?.textContent ?? '' : node.getAttribute(target) ?? '';
        const at = text.indexOf(`${name}[`);
        if (at < 0) continue;
        const close = text.indexOf(']', at + name.length);
        const updated = `${text.slice(0, at)}${name}[${index}]${text.slice(close + 1)}`;
        if (target === null && node.firstChild !== null) node.firstChild.textContent = updated;
        else if (target !== null) node.setAttribute(target, updated);
      }
    });
  };
  const addItem = () => {
    const index = items.length;
    const field = fieldFor(`${prefix}-${id}-i${itemCounter++}`, `${name}[${index}]`, itemSchema, true);
    const wrapper = h('li', { class: 'array-item' });
    const item = { element: wrapper, read: field.read, validate: field.validate, write: field.write };
    const remove = h('button', { type: 'button', class: 'small', 'aria-label': `Remove ${name}[${index}]` }, 'Remove');
    remove.addEventListener('click', () => {
      const position = items.indexOf(item);
      if (position >= 0) items.splice(position, 1);
      wrapper.remove();
      renumber();
    });
    wrapper.append(field.element, remove);
    items.push(item);
    list.append(wrapper);
    return field;
  };
  const add = h('button', { type: 'button', class: 'small', id: `${id}-add`, 'aria-label': `Add an item to ${name}` }, 'Add item');
  add.addEventListener('click', () => {
    addItem();
    list.lastElementChild?.querySelector('input, select, textarea')?.focus();
  });
  const read = () => {
    if (items.length === 0 && !required) return { present: false };
    return { present: true, value: items.map((item) => item.read()).map((value) => (value.present ? value.value : itemDefault(itemSchema))) };
  };
  const validate = () => {
    const childProblems = items.flatMap((item) => item.validate());
    const problems = [];
    if (typeof schema.minItems === 'number' && items.length < schema.minItems && (required || items.length > 0)) problems.push(`Needs at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}.`);
    if (typeof schema.maxItems === 'number' && items.length > schema.maxItems) problems.push(`Takes at most ${schema.maxItems} items.`);
    if (schema.uniqueItems === true) {
      const seen = new Set(items.map((item) => JSON.stringify(item.read())));
      if (seen.size < items.length) problems.push('Items must be different from each other.');
    }
    return [...error.show(problems), ...childProblems];
  };
  const write = (value) => {
    for (const item of items.splice(0)) item.element.remove();
    if (!Array.isArray(value)) return;
    for (const entry of value) addItem().write(entry);
  };
  const element = h(
    'fieldset',
    { class: 'field field-array', id, 'aria-describedby': describedBy(id, schema) },
    h('legend', {}, name, required ? h('span', { class: 'required' }, 'required') : null),
    hint(id, schema),
    list,
    add,
    error.slot,
  );
  return { element, read, validate, write };
}

/** The value an item the user added but left empty stands for. */
function itemDefault(schema) {
  if (schema.default !== undefined) return schema.default;
  switch (schema.type) {
    case 'string':
      return '';
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** The property a CLI tool's subcommand is chosen with (src/introspect/to-zod.ts). */
export const COMMAND_PROPERTY = 'command';

/**
 * The commands a subcommand parameter belongs to, from the scope toolhost appends to its description
 * (`Only with command add, list (required with add).`), or undefined for a parameter every command takes.
 * Names are kept only when they are among `commands` (the command enum), so prose cannot invent one.
 * @param {unknown} description
 * @param {readonly unknown[]} commands
 * @returns {{ commands: string[], requiredFor: string[] } | undefined}
 */
export function commandScope(description, commands) {
  if (typeof description !== 'string') return undefined;
  const at = description.lastIndexOf('Only with command ');
  if (at < 0) return undefined;
  const rest = description.slice(at + 'Only with command '.length, at + 'Only with command '.length + 2000);
  const end = rest.search(/\.(\s|$)| \(/);
  const names = (end < 0 ? rest : rest.slice(0, end)).split(',').map((name) => name.trim());
  const known = names.filter((name) => commands.includes(name));
  if (known.length === 0) return undefined;
  const required = /^ \(required with ([^)]*)\)/.exec(end < 0 ? '' : rest.slice(end));
  const requiredFor = (required?.[1] ?? '').split(',').map((name) => name.trim()).filter((name) => commands.includes(name));
  return { commands: known, requiredFor };
}

function objectField(prefix, path, schema, required) {
  const id = fieldId(prefix, path);
  const requiredNames = new Set(Array.isArray(schema.required) ? schema.required : []);
  const entries = Object.entries(schema.properties ?? {});
  // Required parameters first, then the rest in schema order.
  entries.sort(([a], [b]) => Number(requiredNames.has(b)) - Number(requiredNames.has(a)));
  const children = entries.map(([key, child]) => ({ key, field: fieldFor(prefix, path === null ? key : `${path}.${key}`, child, requiredNames.has(key)) }));
  // A CLI tool with subcommands: each command's own parameters show only while it is chosen.
  const commandEnum = path === null ? withoutNull(schema.properties?.[COMMAND_PROPERTY] ?? {}).enum : undefined;
  const scopes = new Map(
    Array.isArray(commandEnum)
      ? children.flatMap(({ key }) => {
          const scope = key === COMMAND_PROPERTY ? undefined : commandScope(withoutNull(schema.properties[key]).description, commandEnum);
          return scope === undefined ? [] : [[key, scope]];
        })
      : [],
  );
  const commandField = scopes.size > 0 ? children.find(({ key }) => key === COMMAND_PROPERTY)?.field : undefined;
  /** The chosen command, or undefined. */
  const chosen = () => {
    const value = commandField?.read();
    return value?.present ? value.value : undefined;
  };
  const inScope = (key) => {
    const scope = scopes.get(key);
    return scope === undefined || scope.commands.includes(chosen());
  };
  const note = scopes.size > 0 ? h('p', { class: 'hint command-note', 'aria-live': 'polite' }) : null;
  const applyScopes = () => {
    const command = chosen();
    let hidden = 0;
    for (const { key, field } of children) {
      const shown = inScope(key);
      field.element.hidden = !shown;
      field.element.dataset.commands = scopes.get(key)?.commands.join(' ') ?? '';
      if (!shown) hidden += 1;
    }
    if (note !== null) {
      note.textContent =
        command === undefined ? `Choose a command to see its own parameters (${hidden} hidden).` : hidden > 0 ? `Showing the parameters of command ${String(command)}; ${hidden} other command${hidden === 1 ? "'s" : "s'"} parameter${hidden === 1 ? '' : 's'} hidden.` : '';
    }
  };
  const read = () => {
    const value = {};
    for (const { key, field } of children) {
      if (!inScope(key)) continue;
      const child = field.read();
      if (child.present) value[key] = child.value;
    }
    if (path !== null && !required && Object.keys(value).length === 0) return { present: false };
    return { present: true, value };
  };
  const validate = () => {
    const present = read().present;
    // An optional object nobody filled in is not sent, so its required members do not matter.
    if (!present) {
      for (const slot of element.querySelectorAll('.field-error')) {
        slot.hidden = true;
        slot.textContent = '';
      }
      for (const control of element.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
      return [];
    }
    return children.flatMap(({ key, field }) => (inScope(key) ? field.validate() : []));
  };
  const write = (value) => {
    const given = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
    for (const { key, field } of children) field.write(Object.hasOwn(given, key) ? given[key] : undefined);
    if (commandField !== undefined && note !== null) applyScopes();
  };
  const fields = children.map(({ field }) => field.element);
  if (commandField !== undefined && note !== null) {
    commandField.element.append(note);
    commandField.element.addEventListener('change', applyScopes);
    applyScopes();
  }
  const element =
    path === null
      ? h('div', { class: 'fields' }, fields)
      : h('fieldset', { class: 'field field-object', id }, h('legend', {}, path, required ? h('span', { class: 'required' }, 'required') : null), hint(id, schema), fields);
  return { element, read, validate, write };
}
