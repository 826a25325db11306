import { readFile, stat } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { z } from 'zod';
import { errorResult, textResult } from '../src/result.ts';
import { defineTool } from '../src/tool.ts';
import { MAX_TEXT_FILE_BYTES, describeFileSystemError, looksBinary } from './internal/files.ts';
import { compileLinearRegex, type LinearRegex } from './internal/linear-regex.ts';
import { checkRelativePattern, compileGlob, type GlobMatcher } from './internal/patterns.ts';
import { DEFAULT_IGNORED_DIRECTORIES, walkFiles, type WalkedFile } from './internal/walk.ts';
import { realWorkspaceRoot, resolveWorkspacePath } from './internal/workspace.ts';

export const GREP_DEFAULT_MAX_RESULTS = 200;
export const GREP_MAX_RESULTS_LIMIT = 2000;
/** Files larger than this are skipped (counted in metadata). */
export const GREP_MAX_FILE_BYTES = MAX_TEXT_FILE_BYTES;
/** Matching lines longer than this are shortened in the output. */
export const GREP_MAX_LINE_CHARS = 500;
/** Longest stretch, in milliseconds, that searching one file keeps the event loop to itself. */
export const GREP_MAX_BLOCKING_MS = 5;
/** How many lines are searched between two looks at the clock. */
const GREP_LINES_PER_CLOCK_CHECK = 64;

export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search file contents in the workspace with a JavaScript regular expression. Searches every text file under path ' +
    '(default: the workspace root; a single file also works), optionally only files whose names match include (e.g. ' +
    '"*.ts"). Prints one line per match as "path:line:text", paths relative to the workspace root. Binary files, files ' +
    'over 10 MB, node_modules and .git are skipped. Use it to find where something is defined or used; then read_file ' +
    'with offset to see the context.',
  permission: 'read_only',
  input: z.object({
    pattern: z
      .string()
      .min(1)
      .describe('JavaScript regular expression (no slashes), matched against each line, e.g. "function \\w+Tool" or "TODO".'),
    path: z.string().default('.').describe('Directory or file to search, relative to the workspace root. Default: "." (the workspace root).'),
    include: z
      .string()
      .optional()
      .describe('Only search files matching this glob; without a "/" it matches file names anywhere (e.g. "*.ts", "*.{js,mjs}").'),
    case_insensitive: z.boolean().default(false).describe('Match letters regardless of case. Default: false.'),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(GREP_MAX_RESULTS_LIMIT)
      .default(GREP_DEFAULT_MAX_RESULTS)
      .describe(`Stop after this many matching lines. Default: ${GREP_DEFAULT_MAX_RESULTS}, at most ${GREP_MAX_RESULTS_LIMIT}.`),
  }),
  secretParams: [],
  async execute(input, context) {
    const compiled = compileLinearRegex(input.pattern, { caseInsensitive: input.case_insensitive });
    if (!compiled.ok) {
      if (compiled.problem === 'syntax') {
        return errorResult(
          `pattern is not a valid JavaScript regular expression: ${compiled.message}. ` +
            'Escape special characters such as ( ) [ ] { } . * + ? with a backslash to match them literally.',
        );
      }
      return errorResult(`pattern /${input.pattern}/ cannot be used: ${compiled.message}`);
    }
    const regex: LinearRegex = compiled.regex;
    let includeMatcher: GlobMatcher | undefined;
    if (input.include !== undefined) {
      const include = input.include.replace(/^(\.\/)+/, '');
      const problem = checkRelativePattern(include, 'include');
      if (problem) return errorResult(problem);
      const includeGlob = compileGlob(include, 'include', { matchBasename: true });
      if (!includeGlob.ok) return errorResult(includeGlob.message);
      includeMatcher = includeGlob.matcher;
    }
    const resolution = await resolveWorkspacePath(context.workspaceRoot, input.path);
    if (!resolution.ok) return errorResult(resolution.message);
    const target = resolution.path;
    if (!target.exists) return errorResult(`"${input.path}" does not exist. Use list_dir or glob to find the right path.`);
    const rootReal = await realWorkspaceRoot(context.workspaceRoot);

    // A file or a folder alike: the walk opens each file beneath the workspace root (no check-then-use
    // window) and hands it over already open; `file.real` is valid inside the loop body.
    const files: AsyncIterable<WalkedFile> = walkFiles({ rootReal, startReal: target.real, ignoredDirectoryNames: DEFAULT_IGNORED_DIRECTORIES, signal: context.signal });

    const lines: string[] = [];
    let truncated = false;
    let filesSearched = 0;
    let filesWithMatches = 0;
    let skippedBinary = 0;
    let skippedLarge = 0;
    search: for await (const file of files) {
      if (context.signal.aborted) break;
      if (includeMatcher && !includeMatcher.test(file.fromStart)) continue;
      if (file.size > GREP_MAX_FILE_BYTES) {
        skippedLarge += 1;
        continue;
      }
      let buffer: Buffer;
      try {
        buffer = await readFile(file.real);
      } catch {
        continue;
      }
      if (looksBinary(buffer)) {
        skippedBinary += 1;
        continue;
      }
      filesSearched += 1;
      const text = buffer.toString('utf8');
      let matchedThisFile = false;
      let sliceStart = performance.now();
      // Lines as text.split('\n') gives them, less a final empty one, walked without building the array.
      let lineStart = 0;
      for (let index = 0; lineStart < text.length || index === 0; index += 1) {
        if (index % GREP_LINES_PER_CLOCK_CHECK === 0 && performance.now() - sliceStart > GREP_MAX_BLOCKING_MS) {
          // A large file is searched in slices so timers, cancellation and other requests run in between.
          await yieldToEventLoop();
          if (context.signal.aborted) break search;
          sliceStart = performance.now();
        }
        const newline = text.indexOf('\n', lineStart);
        const lineEnd = newline === -1 ? text.length : newline;
        const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
        lineStart = lineEnd + 1;
        if (!regex.test(line)) continue;
        if (lines.length >= input.max_results) {
          truncated = true;
          break search;
        }
        if (!matchedThisFile) {
          matchedThisFile = true;
          filesWithMatches += 1;
        }
        const shown = line.length > GREP_MAX_LINE_CHARS ? `${line.slice(0, GREP_MAX_LINE_CHARS)}... [line cut at ${GREP_MAX_LINE_CHARS} characters]` : line;
        lines.push(`${file.relative}:${index + 1}:${shown}`);
      }
    }
    if (context.signal.aborted) return errorResult('grep was cancelled before it finished.');
    const metadata = {
      path: target.relative,
      matches: lines.length,
      files_with_matches: filesWithMatches,
      files_searched: filesSearched,
      skipped_binary: skippedBinary,
      skipped_large: skippedLarge,
      truncated,
    };
    const skippedNote =
      skippedLarge > 0 ? `\n[${skippedLarge} file(s) over ${GREP_MAX_FILE_BYTES / (1024 * 1024)} MB were skipped; search them with shell]` : '';
    if (lines.length === 0) {
      const where = target.relative === '.' ? 'the workspace' : `"${target.relative}"`;
      return textResult(`No matches for /${input.pattern}/ in ${where} (${filesSearched} files searched).${skippedNote}`, metadata);
    }
    let content = lines.join('\n');
    if (truncated) {
      content += `\n[results truncated at ${input.max_results} matches; narrow the pattern, path or include, or raise max_results]`;
    }
    return textResult(content + skippedNote, metadata);
  },
});
