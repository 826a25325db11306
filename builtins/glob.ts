import { stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { errorResult, textResult } from '../src/result.ts';
import { defineTool } from '../src/tool.ts';
import { describeFileSystemError } from './internal/files.ts';
import { checkRelativePattern, compileGlob } from './internal/patterns.ts';
import { DEFAULT_IGNORED_DIRECTORIES, walkFiles } from './internal/walk.ts';
import { realWorkspaceRoot, resolveWorkspacePath } from './internal/workspace.ts';
import { hostFilesOf } from './internal/host-files.ts';

/** Most paths one glob returns. */
export const GLOB_MAX_RESULTS = 1000;

export const globTool = defineTool({
  name: 'glob',
  description:
    'Find files in the workspace whose paths match a glob pattern, e.g. "**/*.ts", "src/**/test-*.js" or "*.{json,md}". ' +
    'The pattern is matched against paths relative to path (default: the workspace root); "**" crosses directories, ' +
    '"*" does not. Returns matching file paths relative to the workspace root, sorted, one per line. Hidden files are ' +
    `included; node_modules and .git are skipped unless path points inside them. At most ${GLOB_MAX_RESULTS} results. ` +
    'Use it to locate files by name; use grep to search file contents.',
  permission: 'read_only',
  input: z.object({
    pattern: z.string().min(1).describe('Glob pattern relative to path, e.g. "**/*.ts" (all TypeScript files) or "src/*.json".'),
    path: z
      .string()
      .default('.')
      .describe('Directory to search from, relative to the workspace root. Default: "." (the workspace root).'),
  }),
  secretParams: [],
  async execute(input, context) {
    const pattern = input.pattern.replace(/^(\.\/)+/, '');
    const patternProblem = checkRelativePattern(pattern, 'pattern');
    if (patternProblem) return errorResult(patternProblem);
    const resolution = await resolveWorkspacePath(context.workspaceRoot, input.path, hostFilesOf(context.sandbox));
    if (!resolution.ok) return errorResult(resolution.message);
    const base = resolution.path;
    if (!base.exists) return errorResult(`Directory "${input.path}" does not exist. Use list_dir to find the right directory.`);
    try {
      if (!(await stat(base.real)).isDirectory()) {
        return errorResult(`path "${base.relative}" is a file, not a directory. Set path to a directory and put the file name in pattern.`);
      }
    } catch (error) {
      return errorResult(describeFileSystemError(error, base.relative));
    }
    const compiled = compileGlob(pattern, 'pattern');
    if (!compiled.ok) return errorResult(compiled.message);
    const matcher = compiled.matcher;
    // Start the walk at the pattern's literal directory prefix (e.g. "src" for "src/**/*.ts"); a negated pattern walks everything.
    const scanned = picomatch.scan(pattern);
    const literalPrefix = scanned.negated ? '.' : scanned.isGlob ? scanned.base : path.posix.dirname(scanned.base);
    const prefix = literalPrefix === '.' ? '' : literalPrefix;
    const rootReal = await realWorkspaceRoot(context.workspaceRoot);
    const startResolution = await resolveWorkspacePath(rootReal, path.join(base.real, prefix), hostFilesOf(context.sandbox));
    if (!startResolution.ok) return errorResult(`pattern "${input.pattern}": ${startResolution.message}`);
    const matches: string[] = [];
    let truncated = false;
    if (startResolution.path.exists) {
      for await (const file of walkFiles({
        hostFiles: hostFilesOf(context.sandbox),
        rootReal,
        startReal: startResolution.path.real,
        ignoredDirectoryNames: DEFAULT_IGNORED_DIRECTORIES,
        signal: context.signal,
      })) {
        const fromBase = prefix === '' ? file.fromStart : `${prefix}/${file.fromStart}`;
        if (!matcher.test(fromBase)) continue;
        if (matches.length >= GLOB_MAX_RESULTS) {
          truncated = true;
          break;
        }
        matches.push(file.relative);
      }
    }
    if (context.signal.aborted) return errorResult('glob was cancelled before it finished.');
    const where = base.relative === '.' ? 'the workspace' : `"${base.relative}"`;
    if (matches.length === 0) {
      return textResult(`No files match "${input.pattern}" in ${where}.`, { path: base.relative, count: 0, truncated: false });
    }
    let content = matches.join('\n');
    if (truncated) {
      content += `\n[results truncated at ${GLOB_MAX_RESULTS} files; use a more specific pattern or path]`;
    }
    return textResult(content, { path: base.relative, count: matches.length, truncated });
  },
});
