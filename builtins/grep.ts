import { readFile, stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { z } from 'zod';
import { defineTool, errorResult, textResult } from '../src/index.ts';
import { MAX_TEXT_FILE_BYTES, describeFileSystemError, looksBinary } from './internal/files.ts';
import { checkRelativePattern } from './internal/patterns.ts';
import { DEFAULT_IGNORED_DIRECTORIES, walkFiles, type WalkedFile } from './internal/walk.ts';
import { realWorkspaceRoot, resolveWorkspacePath } from './internal/workspace.ts';

export const GREP_DEFAULT_MAX_RESULTS = 200;
export const GREP_MAX_RESULTS_LIMIT = 2000;
/** Files larger than this are skipped (counted in metadata). */
export const GREP_MAX_FILE_BYTES = MAX_TEXT_FILE_BYTES;
/** Matching lines longer than this are shortened in the output. */
export const GREP_MAX_LINE_CHARS = 500;

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
    let regex: RegExp;
    try {
      regex = new RegExp(input.pattern, input.case_insensitive ? 'i' : '');
    } catch (error) {
      return errorResult(
        `pattern is not a valid JavaScript regular expression: ${(error as Error).message}. ` +
          'Escape special characters such as ( ) [ ] { } . * + ? with a backslash to match them literally.',
      );
    }
    let includeMatcher: ((candidate: string) => boolean) | undefined;
    if (input.include !== undefined) {
      const include = input.include.replace(/^(\.\/)+/, '');
      const problem = checkRelativePattern(include, 'include');
      if (problem) return errorResult(problem);
      try {
        includeMatcher = picomatch(include, { dot: true, basename: true });
      } catch (error) {
        return errorResult(`include "${input.include}" is not a valid glob: ${(error as Error).message}`);
      }
    }
    const resolution = await resolveWorkspacePath(context.workspaceRoot, input.path);
    if (!resolution.ok) return errorResult(resolution.message);
    const target = resolution.path;
    if (!target.exists) return errorResult(`"${input.path}" does not exist. Use list_dir or glob to find the right path.`);
    const rootReal = await realWorkspaceRoot(context.workspaceRoot);

    let files: AsyncIterable<WalkedFile> | WalkedFile[];
    try {
      const stats = await stat(target.real);
      if (stats.isFile()) {
        files = [{ relative: target.relative, fromStart: target.relative.split('/').pop() ?? target.relative, real: target.real, size: stats.size }];
      } else if (stats.isDirectory()) {
        files = walkFiles({ rootReal, startReal: target.real, ignoredDirectoryNames: DEFAULT_IGNORED_DIRECTORIES, signal: context.signal });
      } else {
        return errorResult(`"${target.relative}" is neither a file nor a directory and cannot be searched.`);
      }
    } catch (error) {
      return errorResult(describeFileSystemError(error, target.relative));
    }

    const lines: string[] = [];
    let truncated = false;
    let filesSearched = 0;
    let filesWithMatches = 0;
    let skippedBinary = 0;
    let skippedLarge = 0;
    search: for await (const file of files) {
      if (context.signal.aborted) break;
      if (includeMatcher && !includeMatcher(file.fromStart)) continue;
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
      const fileLines = buffer.toString('utf8').split('\n');
      if (fileLines.length > 1 && fileLines[fileLines.length - 1] === '') fileLines.pop();
      let matchedThisFile = false;
      for (let index = 0; index < fileLines.length; index += 1) {
        const line = (fileLines[index] as string).replace(/\r$/, '');
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
