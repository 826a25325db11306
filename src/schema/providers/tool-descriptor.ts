/** The parts of a tool that provider formats read; any `Tool` satisfies it. */
import type { Tool } from '../../tool.ts';

export type ToolDescriptor = Pick<Tool, 'name' | 'description' | 'inputSchema'>;

export type AnnotatedToolDescriptor = Pick<Tool, 'name' | 'description' | 'inputSchema' | 'permission' | 'network' | 'effect' | 'callsTools' | 'outputSchema'>;
