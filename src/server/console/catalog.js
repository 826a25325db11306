// The catalog: every visible tool with its source, permission, network flag and description,
// filtered by a search box and selects; the selected tool's page shows its schema, for wasm tools
// its policy, where it came from (the lockfile's provenance, with a flag for a local file that did
// not come through the lock or one changed since it was locked), how its --help was understood, and
// the try-it form (fields, or raw JSON).

import { ApiError } from './api.js';
import { append, formatBytes, h, prettyJson, replaceChildren } from './dom.js';
import { renderRequestFailure, renderResult } from './result-view.js';
import { checkValue } from './schema-check.js';
import { buildSchemaForm } from './schema-form.js';

/** True when `tool` passes the catalog filters. */
export function matchesFilter(tool, filter) {
  if (filter.source !== '' && tool.source !== filter.source) return false;
  if (filter.permission !== '' && tool.permission !== filter.permission) return false;
  if (filter.networkOnly && !tool.network) return false;
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${tool.name} ${tool.description}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

/** The argument objects of a tool's example calls: its JSON Schema's top-level `examples` (at most 20). */
export function exampleInputs(schema) {
  const examples = schema !== null && typeof schema === 'object' ? schema.examples : undefined;
  if (!Array.isArray(examples)) return [];
  return examples.filter((example) => example !== null && typeof example === 'object' && !Array.isArray(example)).slice(0, 20);
}

/** How an example call reads in the picker: its arguments as JSON, cut to 100 characters. */
function exampleLabel(example) {
  const text = JSON.stringify(example);
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/**
 * Once a wasm tool's inspect report is in, each example in the form's picker is labelled with what it
 * does (the report's `examples[].description`), matched by its arguments.
 */
function describeExamples(form, report) {
  const examples = Array.isArray(report?.examples) ? report.examples : [];
  const select = form.querySelector('select.example-select');
  if (select === null || examples.length === 0) return;
  const described = new Map(examples.filter((example) => typeof example?.description === 'string').map((example) => [JSON.stringify(example.input), example.description]));
  for (const option of select.querySelectorAll('option[data-example]')) {
    const description = described.get(option.dataset.example ?? '');
    if (description !== undefined) option.textContent = `${description.length > 80 ? `${description.slice(0, 79)}…` : description} — ${option.textContent}`;
  }
}

export class Catalog {
  /**
   * @param {import('./api.js').ApiClient} api
   * @param {{ list: HTMLElement, count: HTMLElement, detail: HTMLElement, search: HTMLInputElement, source: HTMLSelectElement, permission: HTMLSelectElement, network: HTMLInputElement }} parts
   */
  constructor(api, parts) {
    this.api = api;
    this.parts = parts;
    /** @type {any[]} */
    this.tools = [];
    /** @type {string | undefined} */
    this.selected = undefined;
    for (const control of [parts.search, parts.source, parts.permission, parts.network]) control.addEventListener('input', () => this.renderList());
  }

  get filter() {
    return { query: this.parts.search.value, source: this.parts.source.value, permission: this.parts.permission.value, networkOnly: this.parts.network.checked };
  }

  /** Fetches the tool list again; re-renders the selected tool's page only when `changed` names it. */
  async refresh(changed) {
    const body = await this.api.json('/v1/tools?format=raw');
    this.tools = body.tools;
    this.renderList();
    if (this.selected === undefined) return;
    if (!this.tools.some((tool) => tool.name === this.selected)) this.showGone(this.selected);
    else if (changed === this.selected) await this.select(this.selected);
  }

  renderList() {
    const filter = this.filter;
    const shown = this.tools.filter((tool) => matchesFilter(tool, filter));
    this.parts.count.textContent = `${shown.length} of ${this.tools.length} tools`;
    replaceChildren(
      this.parts.list,
      shown.length === 0 ? h('li', { class: 'muted empty' }, this.tools.length === 0 ? 'No tools.' : 'No tool matches.') : null,
      shown.map((tool) =>
        h(
          'li',
          { class: 'tool-item', 'data-tool': tool.name },
          h(
            'button',
            { type: 'button', class: 'tool-button', 'aria-current': tool.name === this.selected ? 'true' : null, onclick: () => void this.select(tool.name) },
            h('span', { class: 'tool-name mono' }, tool.name),
            h('span', { class: 'badges' }, badges(tool)),
            h('span', { class: 'tool-description' }, firstSentence(tool.description)),
          ),
        ),
      ),
    );
  }

  /** Shows one tool's page. */
  async select(name) {
    this.selected = name;
    this.renderList();
    const tool = this.tools.find((candidate) => candidate.name === name);
    if (tool === undefined) return this.showGone(name);
    const page = h('article', { class: 'tool-page', 'aria-labelledby': 'tool-title', 'data-tool': name });
    append(
      page,
      h('header', {}, h('h2', { id: 'tool-title', class: 'mono' }, tool.name), h('div', { class: 'badges' }, badges(tool))),
      h('p', { class: 'description' }, tool.description || '(no description)'),
    );
    const form = this.tryItForm(tool);
    append(page, form);
    append(page, h('details', { class: 'schema' }, h('summary', {}, 'JSON Schema'), h('pre', {}, prettyJson(tool.inputSchema))));
    if (tool.source === 'wasm') {
      const inspection = h('section', { class: 'inspection', 'aria-label': 'Inspection' }, h('p', { class: 'muted' }, 'Loading the inspect report…'));
      append(page, inspection);
      void this.loadInspection(tool.name, inspection).then((report) => {
        describeExamples(form, report);
        append(page.querySelector('header .badges') ?? page, provenanceBadge(report?.provenance));
      });
    }
    replaceChildren(this.parts.detail, page);
  }

  showGone(name) {
    replaceChildren(this.parts.detail, h('p', { class: 'notice', role: 'status' }, `${name} is no longer served (removed or hidden).`));
  }

  /**
   * The try-it form: the generated fields, or ("Edit as JSON") the arguments as one JSON text checked
   * against the tool's schema (schema-check.js) before sending. Any validation error clears the result
   * of an earlier call, so an old answer never sits under a new mistake.
   */
  tryItForm(tool) {
    const form = buildSchemaForm(tool.inputSchema);
    const output = h('div', { class: 'result-slot', 'aria-live': 'polite' });
    const summary = h('p', { class: 'form-summary field-error', role: 'alert', hidden: true });
    const submit = h('button', { type: 'submit', class: 'primary' }, `Call ${tool.name}`);
    const jsonId = `json-${tool.name.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
    const jsonInput = /** @type {HTMLTextAreaElement} */ (h('textarea', { id: jsonId, class: 'json raw-json', rows: 8, spellcheck: 'false', 'aria-describedby': `${jsonId}-hint ${jsonId}-error` }));
    const jsonError = h('div', { class: 'field-error', id: `${jsonId}-error`, hidden: true });
    const jsonPanel = h(
      'div',
      { class: 'field raw-json-panel', hidden: true },
      h('div', { class: 'label-row' }, h('label', { for: jsonId }, 'Arguments as JSON')),
      jsonInput,
      h('p', { class: 'hint', id: `${jsonId}-hint` }, "Checked against the tool's JSON Schema before it is sent. Going back to the form keeps the form's own values."),
      jsonError,
    );
    const toggle = h('button', { type: 'button', class: 'small', 'aria-pressed': 'false' }, 'Edit as JSON');
    let rawMode = false;
    toggle.addEventListener('click', () => {
      rawMode = !rawMode;
      toggle.setAttribute('aria-pressed', String(rawMode));
      toggle.textContent = rawMode ? 'Back to the form' : 'Edit as JSON';
      form.element.hidden = rawMode;
      jsonPanel.hidden = !rawMode;
      summary.hidden = true;
      if (rawMode) {
        jsonInput.value = prettyJson(form.read());
        showJsonProblems([]);
        jsonInput.focus();
      }
    });
    const showJsonProblems = (problems) => {
      jsonError.hidden = problems.length === 0;
      if (problems.length === 0) jsonInput.removeAttribute('aria-invalid');
      else jsonInput.setAttribute('aria-invalid', 'true');
      replaceChildren(jsonError, problems.length === 0 ? null : h('ul', { class: 'json-problems' }, problems.map((problem) => h('li', {}, problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`))));
      return problems;
    };
    /** The arguments to send, or undefined after showing why not. */
    const collect = () => {
      if (!rawMode) {
        const problems = form.validate();
        if (problems.length === 0) return form.read();
        summary.textContent = `${problems.length} problem${problems.length === 1 ? '' : 's'} to fix before calling.`;
        return undefined;
      }
      let value;
      try {
        value = JSON.parse(jsonInput.value.trim() === '' ? '{}' : jsonInput.value);
      } catch (failure) {
        showJsonProblems([{ path: '', message: `Not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}` }]);
        summary.textContent = 'Fix the JSON before calling.';
        return undefined;
      }
      const problems = showJsonProblems(value !== null && typeof value === 'object' && !Array.isArray(value) ? checkValue(value, tool.inputSchema) : [{ path: '', message: 'The arguments must be a JSON object of named parameters.' }]);
      if (problems.length === 0) return value;
      summary.textContent = `${problems.length} problem${problems.length === 1 ? '' : 's'} to fix before calling.`;
      return undefined;
    };
    // "Fill from example": the tool's example calls (the schema's top-level `examples`) fill the form.
    const examples = exampleInputs(tool.inputSchema);
    const exampleId = `example-${tool.name.replace(/[^A-Za-z0-9_-]+/g, '_')}`;
    const exampleSelect = /** @type {HTMLSelectElement} */ (
      h('select', { id: exampleId, class: 'example-select' }, h('option', { value: '' }, 'Choose an example…'), examples.map((example, index) => h('option', { value: String(index), 'data-example': JSON.stringify(example) }, exampleLabel(example))))
    );
    exampleSelect.addEventListener('change', () => {
      const example = examples[Number(exampleSelect.value)];
      if (exampleSelect.value === '' || example === undefined) return;
      form.write(example);
      if (rawMode) jsonInput.value = prettyJson(example);
      summary.hidden = true;
    });
    const examplePicker = examples.length === 0 ? null : h('div', { class: 'field example-picker' }, h('div', { class: 'label-row' }, h('label', { for: exampleId }, 'Fill from example')), exampleSelect);
    const element = h(
      'form',
      { class: 'try-it', novalidate: true, 'aria-label': `Try ${tool.name}` },
      h('div', { class: 'try-it-head' }, h('h3', {}, 'Try it'), toggle),
      examplePicker,
      form.element,
      jsonPanel,
      summary,
      h('div', { class: 'actions' }, submit),
      output,
    );
    element.addEventListener('submit', async (event) => {
      event.preventDefault();
      const args = collect();
      if (args === undefined) {
        summary.hidden = false;
        // The result of an earlier call would read as the answer to these arguments.
        replaceChildren(output);
        element.querySelector('[aria-invalid="true"]:not([hidden] *)')?.focus();
        return;
      }
      summary.hidden = true;
      submit.disabled = true;
      replaceChildren(output, h('p', { class: 'muted' }, 'Calling…'));
      const started = performance.now();
      try {
        const result = await this.api.post(`/v1/tools/${encodeURIComponent(tool.name)}/call`, { arguments: args });
        replaceChildren(output, renderResult(result, performance.now() - started));
      } catch (error) {
        replaceChildren(output, renderRequestFailure(error instanceof Error ? error.message : String(error)));
      } finally {
        submit.disabled = false;
      }
    });
    return element;
  }

  async loadInspection(name, target) {
    try {
      const report = await this.api.json(`/v1/tools/${encodeURIComponent(name)}/inspect`);
      replaceChildren(target, renderInspection(report));
      return report;
    } catch (error) {
      const message = error instanceof ApiError ? error.message : String(error);
      replaceChildren(target, h('p', { class: 'field-error' }, `No inspect report: ${message}`));
      return undefined;
    }
  }
}

function badges(tool) {
  return [
    h('span', { class: `badge source-${tool.source}` }, tool.source),
    h('span', { class: `badge permission-${tool.permission}`, title: 'permission' }, tool.permission),
    tool.network ? h('span', { class: 'badge network', title: 'may use the network' }, 'network') : null,
  ];
}

function firstSentence(text) {
  const match = /^.*?[.!?](\s|$)/.exec(text ?? '');
  return (match ? match[0] : text ?? '').trim();
}

function table(headings, rows) {
  return h('table', { class: 'facts' }, h('thead', {}, h('tr', {}, headings.map((heading) => h('th', { scope: 'col' }, heading)))), h('tbody', {}, rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell))))));
}

function optionHead(option) {
  const names = [option.short ? `-${option.short}` : null, option.long ? `--${option.long}` : null, ...(option.aliases ?? [])].filter(Boolean);
  return `${names.join(', ')}${option.takes_value ? ` <${option.value_name ?? 'VALUE'}>` : ''}`;
}

function optionFacts(option) {
  const facts = [option.takes_value ? option.type : 'flag'];
  if (option.required) facts.push('required');
  if (option.repeatable) facts.push('repeatable');
  if (option.default !== null && option.default !== undefined) facts.push(`default ${JSON.stringify(option.default)}`);
  if (option.choices) facts.push(`one of ${option.choices.join('|')}`);
  return facts.join(', ');
}

/** `sha256:0123456789ab…`: a digest short enough to read; the full one is in the title. */
export function shortDigest(digest) {
  const match = /^(sha256:)?([0-9a-f]{64})$/.exec(digest ?? '');
  return match === null ? String(digest ?? '') : `sha256:${match[2].slice(0, 12)}…`;
}

function digestCell(digest) {
  return h('code', { title: digest }, shortDigest(digest));
}

/** Beside the tool's name: a flag for a file that did not come through the lock or changed since; nothing for a locked one. */
export function provenanceBadge(provenance) {
  const status = provenance?.status;
  if (status === 'unlocked') return h('span', { class: 'badge provenance-badge provenance-unlocked', 'data-testid': 'provenance-badge', title: 'A local file that did not come through the lockfile' }, 'not from the lock');
  if (status === 'modified') return h('span', { class: 'badge provenance-badge provenance-modified', 'data-testid': 'provenance-badge', title: 'Its bytes are not the ones the lockfile records' }, 'modified since locked');
  return null;
}

/**
 * Where a wasm tool came from (the report's `provenance`): for a locked tool its reference, digest,
 * signer and when it was verified; a flag for `unlocked` (a local file that did not come through the
 * lock) and `modified` (its bytes are not the ones locked).
 */
export function renderProvenance(provenance) {
  if (provenance === null || typeof provenance !== 'object') return null;
  const status = provenance.status;
  const section = (...children) => h('section', { class: `provenance provenance-${status}`, 'data-testid': 'provenance', 'data-status': status, 'aria-label': 'Provenance' }, h('h3', {}, 'Provenance'), ...children);
  if (status === 'unlocked') {
    return section(
      h('p', { class: 'provenance-flag', role: 'note' }, h('strong', {}, 'Local file, not from the lock. '), `This component did not come through ${provenance.lockfile ?? 'the lockfile'}: nothing records where it came from or who signed it.`),
      h('p', { class: 'muted' }, String(provenance.reason ?? '')),
    );
  }
  const rows = [
    ['reference', h('code', {}, String(provenance.reference))],
    ['digest', digestCell(provenance.digest)],
    ['signer', provenance.signer === null ? h('span', { class: 'unsigned' }, 'unsigned (installed with --insecure-allow-unsigned)') : String(provenance.signer)],
    ['verified at', String(provenance.verified_at)],
    ['lockfile', String(provenance.lockfile)],
  ];
  return section(
    status === 'modified'
      ? h(
          'p',
          { class: 'provenance-flag', role: 'note' },
          h('strong', {}, 'Modified since it was locked. '),
          'The file now holds ',
          digestCell(provenance.found),
          '; the lock says ',
          digestCell(provenance.expected),
          '. What runs is not what was verified.',
        )
      : null,
    table(['', 'value'], rows),
  );
}

/** The policy and the inspect report of a wasm tool (GET /v1/tools/{name}/inspect). */
export function renderInspection(report) {
  const policy = report.policy;
  const network = policy.network;
  const headerNames = Object.entries(network.headers ?? {}).map(([host, names]) => `${host}: ${names.join(', ')}`);
  const helpLine =
    report.help_flag === 'none'
      ? `No usable help (${report.help_problem ?? 'none given'}): the tool takes no parameters.`
      : `Read from \`${report.help_flag}\`${report.help_flag === '--help-json' ? ' (a JSON spec)' : ', parsed'}.`;
  const notUnderstood = report.not_understood;
  return h(
    'div',
    {},
    renderProvenance(report.provenance),
    h('h3', {}, 'Policy'),
    table(
      ['grant', 'value'],
      [
        ['filesystem', policy.fs.length === 0 ? 'none' : policy.fs.map((grant) => `${grant.guest} → ${grant.host} (${grant.mode})`).join(', ')],
        ['env (names only)', policy.env.length === 0 ? 'none' : policy.env.join(', ')],
        ['network', network.allow.length === 0 ? 'none' : network.allow.join(', ')],
        ...(headerNames.length > 0 ? [['headers added (names only)', headerNames.join('; ')]] : []),
        ['limits', `${policy.timeout_ms} ms, ${policy.memory_mb} MiB memory, ${formatBytes(policy.output_bytes)} output per stream`],
      ],
    ),
    h('h3', {}, 'How its help was understood'),
    h('p', {}, helpLine, report.program && report.program !== report.name ? ` The help names the program ${report.program}.` : ''),
    report.name_clash ? h('p', { class: 'notice' }, report.name_clash) : null,
    h('h4', {}, 'Options'),
    report.spec.options.length === 0 ? h('p', { class: 'muted' }, '(none)') : table(['option', 'kind', 'description'], report.spec.options.map((option) => [h('code', {}, optionHead(option)), optionFacts(option), option.description ?? ''])),
    h('h4', {}, 'Positionals'),
    report.spec.positionals.length === 0
      ? h('p', { class: 'muted' }, '(none)')
      : table(['name', 'kind'], report.spec.positionals.map((positional) => [h('code', {}, `<${positional.name}>${positional.variadic ? '...' : ''}`), positional.required ? 'required' : 'optional'])),
    report.spec.subcommands.length === 0 ? null : h('h4', {}, 'Subcommands'),
    report.spec.subcommands.length === 0 ? null : table(['command', 'description'], report.spec.subcommands.map((command) => [h('code', {}, command.name), command.description ?? ''])),
    h('h4', {}, 'Example argv'),
    h('pre', {}, [report.name, ...report.argv_example].join(' ')),
    h('h4', {}, 'Not understood'),
    notUnderstood === undefined
      ? h('p', { class: 'muted' }, 'Not applicable (no text help was parsed).')
      : notUnderstood.count === 0
        ? h('p', { class: 'muted', 'data-testid': 'not-understood' }, 'Every line of the options sections was parsed.')
        : h(
            'div',
            { 'data-testid': 'not-understood' },
            h('p', {}, `${notUnderstood.count} line${notUnderstood.count === 1 ? '' : 's'} of the options sections could not be parsed${notUnderstood.count > notUnderstood.lines.length ? ` (first ${notUnderstood.lines.length} shown)` : ''}:`),
            h('ul', { class: 'unparsed' }, notUnderstood.lines.map((line) => h('li', {}, h('span', { class: 'muted' }, `line ${line.line}: `), h('code', {}, line.text)))),
          ),
    h('details', {}, h('summary', {}, 'Imports and file'), h('pre', {}, [`file: ${report.file}`, `sha256: ${report.sha256}`, '', ...report.imports].join('\n'))),
  );
}
