import type { z } from 'zod';

/** One line per bad field: where, what was expected, what came. Worded for a model to fix its call. */
export function formatIssues(issues: readonly z.ZodIssue[]): string[] {
  return issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
    switch (issue.code) {
      case 'invalid_type':
        return issue.received === 'undefined'
          ? `${where}: required ${issue.expected} is missing`
          : `${where}: expected ${issue.expected}, received ${issue.received}`;
      case 'invalid_enum_value':
        return `${where}: expected one of ${issue.options.map((option) => JSON.stringify(option)).join(', ')}, received ${JSON.stringify(issue.received)}`;
      case 'unrecognized_keys':
        return `${where}: unknown parameter(s) ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
      default:
        return `${where}: ${issue.message}`;
    }
  });
}
