/**
 * Layouts no help framework prints, so the option list was typed by hand and its placeholders say
 * nothing about the options without one (as in meow's and parseArgs' helps):
 *
 * - dot leaders between the head and the description (nodemon `-x, --exec app ........... execute
 *   script`, cwebp `-q <float> ............. quality factor`);
 * - descriptions set off from the head by a single space, in no column (license-checker
 *   `--production only show production dependencies.`, `--start [path of the initial json …]`);
 * - heads giving an example value instead of a placeholder (eleventy `--input=.`,
 *   `--config=filename.js`, `--formats=liquid,md`, `--pathprefix='/'`);
 * - filler placeholders (json2ts `--cwd=XXX`, `--style.XXX=YYY`);
 * - a short and a long spelling glued by a slash (autocannon `-c/--connections NUM`, supervisord
 *   `-c/--configuration FILENAME`): frameworks join spellings with a comma or a space.
 */

/** A head, one space, a run of dots, one space, the description. */
const DOT_LEADER_LINE = /^\s*-(?:\S| (?=\S)){1,80}? \.{3,} \S/;
/** An indented long option, maybe a bracketed or angled placeholder, then one space and words of prose. */
const SINGLE_SPACE_LINE = /^\s+--[A-Za-z][\w-]{0,40}(?: \[[^\]]{1,60}\]| <[^>]{1,40}>)? [a-z]{2,}(?: [a-z(]\S*){1,}/;
/** `--input=.`, `--config=filename.js`, `--pathprefix='/'`: a value holding a dot, slash or comma, or quoted. */
const EXAMPLE_VALUE_HEAD = /^\s*--[A-Za-z][\w-]{0,40}=(?:[\w-]*[.\/,][\w.\/,-]*|'[^'\s]{1,40}')(?:\s|$)/;
/** `--cwd=XXX`, `--style.XXX=YYY`: a letter tripled stands for any value. */
const FILLER_PLACEHOLDER_HEAD = /^\s*--?[A-Za-z][\w.-]{0,40}=(?:XXX|YYY|ZZZ|NNN|xxx)(?:\s|$)/;
const OPTION_LINE = /^\s*--?[A-Za-z]/;
/** `-c/--connections`: a short and a long spelling glued by a slash. */
const SLASH_JOINED_HEAD = /^\s*-[A-Za-z0-9]\/--[A-Za-z]/;
const MIN_FILLER_LINES = 2;
const MIN_LINES = 3;

export function looksHandLaidOut(lines: readonly string[]): boolean {
  const optionLines = lines.filter((line) => OPTION_LINE.test(line));
  if (optionLines.filter((line) => DOT_LEADER_LINE.test(line)).length >= MIN_LINES) return true;
  if (optionLines.filter((line) => EXAMPLE_VALUE_HEAD.test(line)).length >= MIN_LINES) return true;
  if (optionLines.filter((line) => FILLER_PLACEHOLDER_HEAD.test(line)).length >= MIN_FILLER_LINES) return true;
  if (lines.filter((line) => SLASH_JOINED_HEAD.test(line)).length >= MIN_LINES) return true;
  const single = optionLines.filter((line) => SINGLE_SPACE_LINE.test(line) && !/\S {2,}\S/.test(line.trim()));
  return single.length >= MIN_LINES && single.length * 2 > optionLines.length;
}
