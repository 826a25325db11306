import { readFile, stat } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { z } from 'zod';
import { errorResult, textResult, type ToolResult } from '../src/result.ts';
import { defineTool } from '../src/tool.ts';
import { MAX_TEXT_FILE_BYTES, describeFileSystemError, looksBinary } from './internal/files.ts';
import { compileLinearRegex, type LinearRegex } from './internal/linear-regex.ts';
import { checkRelativePattern, compileGlob, type GlobMatcher } from './internal/patterns.ts';
import { DEFAULT_IGNORED_DIRECTORIES, walkFiles, type WalkedFile } from './internal/walk.ts';
import { realWorkspaceRoot, resolveWorkspacePath } from './internal/workspace.ts';
import { hostFilesOf } from './internal/host-files.ts';

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
    const compiled = compilePattern(input.pattern, input.case_insensitive);
    if ('error' in compiled) return errorResult(compiled.error);
    let includeMatcher: GlobMatcher | undefined;
    if (input.include !== undefined) {
      const include = compileInclude(input.include);
      if ('error' in include) return errorResult(include.error);
      includeMatcher = include.matcher;
    }
    const resolution = await resolveWorkspacePath(context.workspaceRoot, input.path, hostFilesOf(context.sandbox));
    if (!resolution.ok) return errorResult(resolution.message);
    const target = resolution.path;
    if (!target.exists) return errorResult(`"${input.path}" does not exist. Use list_dir or glob to find the right path.`);
    const rootReal = await realWorkspaceRoot(context.workspaceRoot);

    // A file or a folder alike: the walk opens each file beneath the workspace root (no check-then-use
    // window) and hands it over already open; `file.real` is valid inside the loop body.
    const files: AsyncIterable<WalkedFile> = walkFiles({ hostFiles: hostFilesOf(context.sandbox), rootReal, startReal: target.real, ignoredDirectoryNames: DEFAULT_IGNORED_DIRECTORIES, signal: context.signal });
    const tally = await searchFiles(files, compiled.regex, includeMatcher, input.max_results, context.signal);
    if (context.signal.aborted) return errorResult('grep was cancelled before it finished.');
    return reportMatches(input.pattern, input.max_results, target.relative, tally);
  },
});

/** The pattern as a linear-time regex, or why it cannot be used (worded for the model). */
function compilePattern(pattern: string, caseInsensitive: boolean): { regex: LinearRegex } | { error: string } {
  const compiled = compileLinearRegex(pattern, { caseInsensitive });
  if (compiled.ok) return { regex: compiled.regex };
  if (compiled.problem === 'syntax') {
    return {
      error:
        `pattern is not a valid JavaScript regular expression: ${compiled.message}. ` +
        'Escape special characters such as ( ) [ ] { } . * + ? with a backslash to match them literally.',
    };
  }
  return { error: `pattern /${pattern}/ cannot be used: ${compiled.message}` };
}

/** The `include` glob (a leading "./" dropped; without a "/" it matches base names), or why it is refused. */
function compileInclude(raw: string): { matcher: GlobMatcher } | { error: string } {
  const include = raw.replace(/^(\.\/)+/, '');
  const problem = checkRelativePattern(include, 'include');
  if (problem) return { error: problem };
  const includeGlob = compileGlob(include, 'include', { matchBasename: true });
  if (!includeGlob.ok) return { error: includeGlob.message };
  return { matcher: includeGlob.matcher };
}

/** What a search found and passed over. */
interface GrepTally {
  lines: string[];
  truncated: boolean;
  filesSearched: number;
  filesWithMatches: number;
  skippedBinary: number;
  skippedLarge: number;
}

/** Searches the walked files in order until they run out, `maxResults` lines are found, or the call is cancelled. */
async function searchFiles(
  files: AsyncIterable<WalkedFile>,
  regex: LinearRegex,
  includeMatcher: GlobMatcher | undefined,
  maxResults: number,
  signal: AbortSignal,
): Promise<GrepTally> {
  const tally: GrepTally = { lines: [], truncated: false, filesSearched: 0, filesWithMatches: 0, skippedBinary: 0, skippedLarge: 0 };
  for await (const file of files) {
    if (signal.aborted) break;
    if (includeMatcher && !includeMatcher.test(file.fromStart)) continue;
    if (file.size > GREP_MAX_FILE_BYTES) {
      tally.skippedLarge += 1;
      continue;
    }
    let buffer: Buffer;
    try {
      buffer = await readFile(file.real);
    } catch {
      continue;
    }
    if (looksBinary(buffer)) {
      tally.skippedBinary += 1;
      continue;
    }
    tally.filesSearched += 1;
    if ((await searchText(buffer.toString('utf8'), file.relative, regex, maxResults, tally, signal)) === 'stop') break;
  }
  return tally;
}

/**
 * Adds one file's matching lines to the tally; 'stop' when the search must end (results full, or
 * cancelled while it yielded). A large file is searched in slices so the event loop is never held
 * longer than GREP_MAX_BLOCKING_MS.
 */
async function searchText(text: string, relative: string, regex: LinearRegex, maxResults: number, tally: GrepTally, signal: AbortSignal): Promise<'go on' | 'stop'> {
  let matchedThisFile = false;
  let sliceStart = performance.now();
  // Lines as text.split('\n') gives them, less a final empty one, walked without building the array.
  let lineStart = 0;
  for (let index = 0; lineStart < text.length || index === 0; index += 1) {
    if (index % GREP_LINES_PER_CLOCK_CHECK === 0 && performance.now() - sliceStart > GREP_MAX_BLOCKING_MS) {
      // A large file is searched in slices so timers, cancellation and other requests run in between.
      await yieldToEventLoop();
      if (signal.aborted) return 'stop';
      sliceStart = performance.now();
    }
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    lineStart = lineEnd + 1;
    if (!regex.test(line)) continue;
    if (tally.lines.length >= maxResults) {
      tally.truncated = true;
      return 'stop';
    }
    if (!matchedThisFile) {
      matchedThisFile = true;
      tally.filesWithMatches += 1;
    }
    const shown = line.length > GREP_MAX_LINE_CHARS ? `${line.slice(0, GREP_MAX_LINE_CHARS)}... [line cut at ${GREP_MAX_LINE_CHARS} characters]` : line;
    tally.lines.push(`${relative}:${index + 1}:${shown}`);
  }
  return 'go on';
}

/** The result: one "path:line:text" a match, or a no-match sentence, with notes on truncation and skipped files. */
function reportMatches(pattern: string, maxResults: number, relativePath: string, tally: GrepTally): ToolResult {
  const { lines, truncated, filesSearched, skippedLarge } = tally;
  const metadata = {
    path: relativePath,
    matches: lines.length,
    files_with_matches: tally.filesWithMatches,
    files_searched: filesSearched,
    skipped_binary: tally.skippedBinary,
    skipped_large: skippedLarge,
    truncated,
  };
  const skippedNote =
    skippedLarge > 0 ? `\n[${skippedLarge} file(s) over ${GREP_MAX_FILE_BYTES / (1024 * 1024)} MB were skipped; search them with shell]` : '';
  if (lines.length === 0) {
    const where = relativePath === '.' ? 'the workspace' : `"${relativePath}"`;
    return textResult(`No matches for /${pattern}/ in ${where} (${filesSearched} files searched).${skippedNote}`, metadata);
  }
  let content = lines.join('\n');
  if (truncated) {
    content += `\n[results truncated at ${maxResults} matches; narrow the pattern, path or include, or raise max_results]`;
  }
  return textResult(content + skippedNote, metadata);
}
