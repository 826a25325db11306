import type { z } from 'zod';
import { isIntegerSchema, schemaAtPath } from '../schema/zod-path.ts';

/**
 * What an `invalid_type` issue expected, worded by the field: zod says `number` for a string given to
 * an integer field, where the field wants an integer (the schema, when given, tells which it is).
 */
export function expectedType(issue: z.ZodInvalidTypeIssue, schema: z.ZodTypeAny | undefined): string {
  return issue.expected === 'number' && schema !== undefined && isIntegerSchema(schemaAtPath(schema, issue.path)) ? 'integer' : issue.expected;
}

/**
 * One line per bad field: where, what was expected, what came. Worded for a model to fix its call.
 * `schema`: the schema the issues came from, so an integer field is named as one.
 */
export function formatIssues(issues: readonly z.ZodIssue[], schema?: z.ZodTypeAny): string[] {
  return issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
    switch (issue.code) {
      case 'invalid_type': {
        const expected = expectedType(issue, schema);
        return issue.received === 'undefined' ? `${where}: required ${expected} is missing` : `${where}: expected ${expected}, received ${issue.received}`;
      }
      case 'invalid_enum_value':
        return `${where}: expected one of ${issue.options.map((option) => JSON.stringify(option)).join(', ')}, received ${JSON.stringify(issue.received)}`;
      case 'unrecognized_keys':
        return `${where}: unknown parameter(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
      default:
        return `${where}: ${issue.message}`;
    }
  });
}
