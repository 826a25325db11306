/**
 * The `search_tools` built-in: for hosts with many tools, a model can find the few it needs by
 * keyword instead of reading every schema. It ranks the tools the host offers the caller
 * (`ToolContext.listTools`: permission mode and include/exclude already applied) with BM25 over
 * their name, description and parameters, and returns the best ones with their input schemas.
 */
import { z } from 'zod';
import { errorResult, textResult } from '../src/result.ts';
import { defineTool, type AnyTool } from '../src/tool.ts';
import { Bm25Index, type Bm25Document } from './internal/bm25.ts';

export const SEARCH_TOOLS_DEFAULT_LIMIT = 5;
export const SEARCH_TOOLS_MAX_LIMIT = 50;
/** Tool names listed when nothing matches, so the model can try other words. */
const NAMES_SHOWN_ON_MISS = 100;
/** A name says most about a tool, then its parameters, then the prose of its description. */
const FIELD_WEIGHTS = { name: 3, parameters: 1.5, description: 1 } as const;
type SearchField = keyof typeof FIELD_WEIGHTS;

/** The searchable text of a tool's parameters: each top-level property's name, description and enum values. */
export function parametersText(tool: AnyTool): string {
  const properties = tool.inputSchema['properties'];
  if (typeof properties !== 'object' || properties === null) return '';
  return Object.entries(properties as Record<string, unknown>)
    .map(([name, schema]) => {
      const parts = [name];
      if (typeof schema === 'object' && schema !== null) {
        const { description, enum: values } = schema as { description?: unknown; enum?: unknown };
        if (typeof description === 'string') parts.push(description);
        if (Array.isArray(values)) parts.push(values.filter((value) => typeof value === 'string').join(' '));
      }
      return parts.join(' ');
    })
    .join('\n');
}

function toDocument(tool: AnyTool): Bm25Document<SearchField> {
  return { id: tool.name, fields: { name: tool.name, description: tool.description, parameters: parametersText(tool) } };
}

export const searchToolsTool = defineTool({
  name: 'search_tools',
  description:
    'Find tools by keyword when there are too many to read them all: ranks every tool this host offers by how well ' +
    'its name, description and parameters match query (BM25; a word of 3+ letters also matches words it begins), ' +
    'and returns the best ones as JSON {"tools": [{name, description, inputSchema}]}, ready to call. Describe the ' +
    'task in a few words, e.g. "run command" or "find files by name". It reads only the host\'s tool list, not the workspace.',
  permission: 'read_only',
  input: z.object({
    query: z.string().min(1).describe('Words describing what the tool should do or be called, e.g. "edit file" or "http request".'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(SEARCH_TOOLS_MAX_LIMIT)
      .default(SEARCH_TOOLS_DEFAULT_LIMIT)
      .describe(`Most tools to return. Default: ${SEARCH_TOOLS_DEFAULT_LIMIT}, at most ${SEARCH_TOOLS_MAX_LIMIT}.`),
  }),
  // The answer's shape: MCP clients get it as the tool's outputSchema and each result's structuredContent.
  output: z.object({
    tools: z
      .array(
        z.object({
          name: z.string(),
          description: z.string(),
          inputSchema: z.record(z.string(), z.unknown()).describe("The tool's input JSON Schema."),
        }),
      )
      .describe('The best matches, best first; empty when nothing matched.'),
  }),
  secretParams: [],
  async execute(input, context) {
    if (!context.listTools) return errorResult('search_tools needs a tool host to search; this caller provides no tool list.');
    const tools = context.listTools().filter((tool) => tool.name !== 'search_tools');
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const hits = new Bm25Index(tools.map(toDocument), FIELD_WEIGHTS).search(input.query, input.limit);
    if (hits.length === 0) {
      const names = [...byName.keys()];
      const shown = names.slice(0, NAMES_SHOWN_ON_MISS).join(', ') + (names.length > NAMES_SHOWN_ON_MISS ? ', ...' : '');
      const miss = textResult(`No tool matches "${input.query}". Try other words${names.length > 0 ? `; the tools are: ${shown}` : ''}.`, {
        matches: 0,
        total_tools: tools.length,
      });
      return { ...miss, structured_content: { tools: [] } };
    }
    const found = hits.map((hit) => byName.get(hit.id) as AnyTool);
    const content = JSON.stringify({ tools: found.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })) });
    return textResult(content, {
      matches: found.length,
      total_tools: tools.length,
      names: found.map((tool) => tool.name),
      scores: hits.map((hit) => Number(hit.score.toFixed(3))),
    });
  },
});
