/**
 * The tool's description from its help: the help's own summary, never a banner. Rules, in order:
 *
 * 1. Candidate paragraphs, first usable one wins: when the help has a usage line, the paragraphs
 *    before it, then the ones after it and before the option entries; the ones after the entries
 *    (notes, examples) only when no paragraph precedes them; without a usage line, every paragraph.
 * 2. In each paragraph, lines that are no summary are dropped:
 *    - a **version banner**: a name of at most six words (no function words such as `to`, `for`)
 *      followed by a version (`foo 1.2.3`, `foo v1.2`, `foo/1.2.3`, `foo version 2.0`), then nothing but
 *      parentheses, an attribution (`by …`, `(c) …`, `Copyright …`) or at most two words (`BusyBox
 *      v1.35.0 (Debian …) multi-call binary.`). Text after the version that says more is kept: the
 *      part after a separator (`foo 1.2.3 - convert images` → `convert images`), else the whole line.
 *      Prose before a trailing version keeps the prose (`bzip2, a block-sorting file compressor.
 *      Version 1.0.8, 13-Jul-2019.` → `bzip2, a block-sorting file compressor.`);
 *    - a trailing parenthesized name and version (at most three words) is cut from a summary
 *      (`Initialize a project (nuxi init v3.37.0)`), and a line that is then only a name of at most
 *      two words is dropped (`ATTW CLI (v0.18.5)`);
 *    - an **ASCII-art** line (figlet letters, box drawing, rules of `=`/`*`/`-`): more symbols than
 *      letters and digits, or three box-drawing characters;
 *    - an author, copyright or licence line (`Copyright (C) …`, `©`, `(c) 2020`, `NO WARRANTY`,
 *      `Licensed under`, `Released under`, `This is free software`), and a line that is an e-mail or
 *      web address with at most six other words;
 *    - a section title standing alone (`Version`, `Flags`) and a usage form (`certbot [SUBCOMMAND] …`,
 *      BusyBox's `or httpd -d/-e/-m STRING`).
 * 3. The kept lines, joined and clamped, are the description when they hold two words or more and do
 *    not end with `:` (a lead-in: `Command Summary:`); else the next candidate. No candidate: `''`
 *    (the tool list then says "Runs the X command-line tool"). A `.tool.json` `description` replaces
 *    the result (overrides.ts).
 *
 * Linear time: each line is cut to a fixed length before its few bounded regex tests, paragraphs and
 * their lines are capped, and a paragraph is read only until the clamped description is full.
 */
import type { Paragraph } from './help-scan.ts';
import { clampDescription, MAX_DESCRIPTION_CHARS } from './limits.ts';

const MAX_LINE_CHARS = 400;
const MAX_PARAGRAPHS = 40;
const MAX_PARAGRAPH_LINES = 60;
const MAX_NAME_WORDS = 6;
const TRAILING_GROUP_CHARS = 200;
/** A version: `1.2`, `v1.2.3`, `1.0.0-alpha.72`, `version 2.0`, `/5.0.5`. */
const VERSION = /(?:\bversion\s*:?\s*|\bv\.?\s?|\/)?\bv?\d{1,6}(?:\.\d{1,8}){1,4}(?:[-+][\w.+-]{0,40})?/i;
const VERSION_GLOBAL = new RegExp(VERSION.source, 'gi');
const TRAILING_VERSION_GROUP = /[([][^()[\]]{0,80}\d\.\d[^()[\]]{0,80}[)\]]\s*[.!]?\s*$/;
const PARENTHESES = /\([^()]{0,200}\)|\[[^[\]]{0,200}\]/g;
const ATTRIBUTION = /^[\s,;:.-]*(?:(?:written\s+|developed\s+|maintained\s+|created\s+)?(?:and\s+)?(?:copyright\b|by\b|©|\(c\)|built\b|compiled\b|commit\b|released\b|licen[cs]ed?\b)).*$/i;
const FUNCTION_WORD = /^(?:a|an|the|to|for|of|in|on|with|from|into|and|or|as|is|are|that|this|if|by|at)$/i;
/** Runs of banner decoration around a line: `*** Zstandard CLI v1.5.4 ***`, `=== foo 1.0 ===`. */
const DECORATION = /^(?:[*=#~_|-]{2,}|[*#]\s)\s*|\s*[*=#~_|-]{2,}$/g;
const SEPARATED_SUMMARY = /^(?:\s*\([^()]{0,200}\))*\s*[-\u2013\u2014:]\s+(\S.*)$/;
const EMAIL = /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/;
const URL = /\b(?:https?:\/\/|www\.)\S{1,300}/i;
const NOTICE = /(?:^copyright\b|\bcopyright\s+(?:\(c\)|©|\d{4})|©|\(c\)\s*\d{4}|\ball rights reserved\b|\bno warranty\b|\bwithout any warranty\b|\blicensed under\b|\breleased under\b|\bthis is free software\b)/i;
/** A section title standing alone (`Version`, `Flags`): no summary. */
const TITLE = /^[A-Z][A-Za-z]{1,30}:?$/;
/** A usage form: `certbot [SUBCOMMAND] [options]`, BusyBox's `or httpd -d/-e/-m STRING`. */
const USAGE_FORM = /^(?:[a-z0-9][\w.@/-]{0,63}\s+\[|or\s+[\w.-]{1,64}\s+-)/;

function wordsOf(text: string): string[] {
  return text.split(/[\s,;:]+/).filter((word) => /[A-Za-z]{2}/.test(word));
}

/** Figlet letters, box drawing, rules: more symbols (`_` among them) than letters and digits, or box-drawing characters. */
function isArt(line: string): boolean {
  let letters = 0;
  let symbols = 0;
  let box = 0;
  for (const character of line) {
    if (/[A-Za-z0-9]/.test(character)) letters += 1;
    else if (/\s/.test(character)) continue;
    else {
      symbols += 1;
      if (character >= '\u2500' && character <= '\u259f') box += 1;
    }
  }
  return box >= 3 || (symbols >= 3 && symbols > letters);
}

/** An author, copyright or licence line, or a web or e-mail address with few words around it. */
function isNotice(line: string): boolean {
  if (NOTICE.test(line)) return true;
  // (an address needs its `@`: the e-mail pattern is tried only then, a bounded scan at every start)
  const email = line.includes('@') && EMAIL.test(line);
  const url = URL.test(line);
  if (!email && !url) return false;
  const withoutAddresses = (email ? line.replace(EMAIL, ' ') : line).replace(URL, ' ');
  return wordsOf(withoutAddresses).length <= 6;
}

/**
 * What a line leaves of a summary once a version banner is taken off: `null` when it is all banner,
 * else the line, its summary after the banner's separator, or its prose before a trailing version.
 */
function withoutBanner(line: string): string | null {
  let text = line.replace(DECORATION, '');
  let cut = line;
  // (searched in the line's tail only: the group is bounded, and a search from every start would not be)
  const tailStart = Math.max(0, text.length - TRAILING_GROUP_CHARS);
  const tail = TRAILING_VERSION_GROUP.exec(text.slice(tailStart));
  const grouped = tail === null ? null : { 0: tail[0], index: tail.index + tailStart };
  // (a name and its version, `(nuxi init v3.37.0)`; not a clause, `(default to 127.0.0.1:8090 if …)`)
  if (grouped !== null && VERSION.test(grouped[0]) && wordsOf(grouped[0].replace(VERSION_GLOBAL, ' ')).length <= 3) {
    text = text.slice(0, grouped.index).replace(DECORATION, '');
    if (wordsOf(text).length <= 2 && !VERSION.test(text)) return null;
    cut = text;
  }
  const version = VERSION.exec(text);
  if (version === null) return cut;
  const after = text.slice(version.index + version[0].length);
  const saysMore = wordsOf(after.replace(ATTRIBUTION, '').replace(VERSION_GLOBAL, ' ').replace(PARENTHESES, ' ')).length > 2;
  const before = text.slice(0, version.index);
  const nameTokens = before.replace(PARENTHESES, ' ').split(/[\s,;:]+/).filter((token) => token !== '');
  const isName = wordsOf(before.replace(PARENTHESES, ' ')).length <= MAX_NAME_WORDS && !nameTokens.some((token) => FUNCTION_WORD.test(token));
  if (!isName) {
    // `bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.`: the prose before it
    return !saysMore && /[.,;)]\s*$/.test(before) ? before.trim().replace(/[,;]$/, '') : cut;
  }
  if (!saysMore) return null;
  // `foo 1.2.3 - convert images`: the summary after the banner's separator
  const separated = SEPARATED_SUMMARY.exec(after);
  return separated !== null ? (separated[1] ?? '') : cut;
}

/** The paragraph's summary lines (banners, art, notices, titles and forms dropped), or null when none is left. */
function summaryOf(paragraph: Paragraph): string | null {
  const kept: string[] = [];
  let keptChars = 0;
  for (const raw of paragraph.lines.slice(0, MAX_PARAGRAPH_LINES)) {
    const line = raw.slice(0, MAX_LINE_CHARS).trim();
    if (line === '' || isArt(line) || isNotice(line) || TITLE.test(line) || USAGE_FORM.test(line)) continue;
    const summary = withoutBanner(line)?.trim();
    if (summary !== undefined && summary !== '') kept.push(summary);
    keptChars += summary?.length ?? 0;
    // enough for the clamped description: the rest of the paragraph cannot change it
    if (keptChars > MAX_DESCRIPTION_CHARS) break;
  }
  const text = clampDescription(kept.join(' '));
  // fewer than two words says nothing; a closing colon introduces what follows (`Command Summary:`)
  return wordsOf(text).length < 2 || text.endsWith(':') ? null : text;
}

/** The help's summary as the spec's description (see the module comment for the rules). */
export function helpSummary(paragraphs: readonly Paragraph[], seenUsage: boolean): string {
  const considered = paragraphs.slice(0, MAX_PARAGRAPHS);
  const beforeEntries = considered.filter((paragraph) => !paragraph.afterUsage || !paragraph.afterEntries);
  // the paragraphs after the entries are notes and examples, the summary only when nothing precedes them
  const afterEntries = beforeEntries.length === 0 ? considered.filter((paragraph) => paragraph.afterUsage && paragraph.afterEntries) : [];
  const candidates = seenUsage
    ? [...beforeEntries.filter((paragraph) => !paragraph.afterUsage), ...beforeEntries.filter((paragraph) => paragraph.afterUsage), ...afterEntries]
    : considered;
  for (const paragraph of candidates) {
    const summary = summaryOf(paragraph);
    if (summary !== null) return summary;
  }
  return '';
}
