/**
 * Schema tokens saved by tool search and code mode (prints numbers, asserts nothing):
 *   node --import tsx test/bench/code-mode-tokens.ts
 * A host with 100 tools (the built-ins plus synthetic tools with 1-6 parameters each, generated from a
 * fixed seed) is offered to a model two ways:
 *   - in full: every tool's definition in the prompt (Anthropic and OpenAI formats);
 *   - code mode: only search_tools and run_code in the prompt, plus what the model reads on demand:
 *     one real search_tools answer (limit 5, then limit 1) or one declaration file (GET /v1/tools/tree/...).
 * Sizes are characters of compact JSON / declaration text; tokens are approximated as characters / 4.
 * Env: BENCH_TOOLS (total tools, default 100).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { builtinTools } from '../../builtins/index.ts';
import { createHost } from '../../src/host.ts';
import { textResult } from '../../src/result.ts';
import { formatToolList } from '../../src/schema/providers/format.ts';
import { toolDeclaration } from '../../src/schema/typescript-declaration.ts';
import { defineTool, type AnyTool } from '../../src/tool.ts';

const TOTAL = Number(process.env.BENCH_TOOLS ?? 100);

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same catalogue. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'sync', 'export', 'import', 'validate'];
const NOUNS = ['invoice', 'customer', 'ticket', 'deployment', 'calendar_event', 'repository', 'dataset', 'order', 'alert', 'document', 'user', 'payment'];
const PARAMETER_KINDS = ['id', 'query', 'limit', 'status', 'tags', 'since', 'include_archived', 'format', 'owner', 'notes'] as const;

function parameter(kind: (typeof PARAMETER_KINDS)[number], noun: string): z.ZodTypeAny {
  switch (kind) {
    case 'id':
      return z.string().min(1).describe(`Identifier of the ${noun}, as returned by the list call (e.g. "${noun.slice(0, 3)}_123").`);
    case 'query':
      return z.string().describe(`Free-text search over the ${noun}'s title, body and labels.`);
    case 'limit':
      return z.number().int().min(1).max(200).default(20).describe('Most results to return. Default 20, at most 200.');
    case 'status':
      return z.enum(['open', 'pending', 'closed', 'archived']).describe(`Only ${noun}s in this state.`);
    case 'tags':
      return z.array(z.string()).max(10).optional().describe('Labels that must all be present.');
    case 'since':
      return z.string().optional().describe('ISO 8601 timestamp; only items changed after it.');
    case 'include_archived':
      return z.boolean().default(false).describe('Also return archived items. Default false.');
    case 'format':
      return z.enum(['json', 'csv', 'markdown']).default('json').describe('Output format of the answer.');
    case 'owner':
      return z.string().optional().describe(`User name or email of the ${noun}'s owner.`);
    case 'notes':
      return z.string().max(2000).optional().describe('A note stored with the change, shown in the audit log.');
  }
}

function syntheticTools(count: number, next: () => number): AnyTool[] {
  const tools: AnyTool[] = [];
  for (let index = 0; tools.length < count; index += 1) {
    const verb = VERBS[Math.floor(next() * VERBS.length)] as string;
    const noun = NOUNS[Math.floor(next() * NOUNS.length)] as string;
    const name = `${verb}_${noun}_${index}`;
    const shape: Record<string, z.ZodTypeAny> = {};
    const parameters = 1 + Math.floor(next() * 6);
    for (let p = 0; p < parameters; p += 1) {
      const kind = PARAMETER_KINDS[Math.floor(next() * PARAMETER_KINDS.length)] as (typeof PARAMETER_KINDS)[number];
      shape[kind] = parameter(kind, noun);
    }
    tools.push(
      defineTool({
        name,
        description: `${verb[0]?.toUpperCase()}${verb.slice(1)} ${noun.replace('_', ' ')} records in the company's back office. Returns JSON; errors name the failing field. Requires the ${noun} scope.`,
        permission: 'read_only',
        input: z.object(shape),
        secretParams: [],
        execute: async () => textResult('{}'),
      }),
    );
  }
  return tools;
}

const chars = (value: unknown): number => (typeof value === 'string' ? value : JSON.stringify(value)).length;
const tokens = (count: number): number => Math.round(count / 4);

async function main(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'toolhost-code-mode-'));
  const tools = [...builtinTools, ...syntheticTools(TOTAL - builtinTools.length, random(42))];
  const host = await createHost({ workspaceRoot: workspace }, { builtinTools: tools });
  try {
    const visible = host.listTools();
    const codeModeTools = visible.filter((tool) => tool.name === 'search_tools' || tool.name === 'run_code');
    const target = visible.find((tool) => tool.name.startsWith('search_invoice')) ?? visible.find((tool) => tool.name.startsWith('list_')) ?? (visible[0] as AnyTool);
    const query = target.name.replace(/_\d+$/, '').replace(/_/g, ' ');
    const search5 = await host.callTool('search_tools', { query, limit: 5 });
    const search1 = await host.callTool('search_tools', { query, limit: 1 });
    const declaration = toolDeclaration(target);

    const rows: [string, number][] = [];
    for (const format of ['anthropic', 'openai'] as const) {
      rows.push([`${visible.length} tools in full (${format})`, chars(formatToolList(visible, format))]);
      const base = chars(formatToolList(codeModeTools, format));
      rows.push([`  search_tools + run_code only (${format})`, base]);
      rows.push([`  ... + one search_tools answer, limit 5`, base + chars(search5.content)]);
      rows.push([`  ... + one search_tools answer, limit 1`, base + chars(search1.content)]);
      rows.push([`  ... + one declaration file (${target.name}.d.ts)`, base + chars(declaration)]);
    }
    console.log(`code mode schema tokens: ${visible.length} tools (${builtinTools.length} built-ins + ${visible.length - builtinTools.length} synthetic, seed 42); query "${query}"`);
    console.log(`${'prompt'.padEnd(58)} ${'chars'.padStart(8)} ${'~tokens'.padStart(8)}`);
    for (const [label, count] of rows) console.log(`${label.padEnd(58)} ${String(count).padStart(8)} ${String(tokens(count)).padStart(8)}`);
    const full = rows[0]?.[1] ?? 0;
    const withDeclaration = rows[4]?.[1] ?? 0;
    console.log(`saved (anthropic, full vs search_tools + run_code + one declaration): ${full - withDeclaration} chars, ~${tokens(full - withDeclaration)} tokens (${((1 - withDeclaration / full) * 100).toFixed(1)}%)`);
  } finally {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

await main();
