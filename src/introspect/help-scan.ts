/**
 * The line pass of `parseHelp`: walks the help text once and sorts its lines into usage forms,
 * option / positional / command entries (head plus description lines) and prose paragraphs. It
 * decides nothing about types, defaults or choices; later passes read the entries.
 */
import { indentOf } from './limits.ts';
import { parseOptionHead, splitHead, type OptionHead } from './option-head.ts';

export type SectionKind = 'none' | 'options' | 'positionals' | 'commands' | 'usage' | 'other';

export interface Entry {
  kind: 'option' | 'positional' | 'command';
  indent: number;
  /** Column where the description starts on the head line, or null when the head stood alone. */
  descriptionColumn: number | null;
  head: string;
  option: OptionHead | null;
  description: string[];
  /** Listed under a title saying its options take a value (Pod::Usage `Options that take arguments:`). */
  valueSection?: boolean;
  /**
   * Which run of entries this one belongs to: the count goes up at every section title or prose
   * line between entries (tsc's `COMMAND LINE FLAGS` / `COMMON COMPILER OPTIONS` are plain lines).
   */
  block: number;
  /** True when the entry comes after the first usage line (cobra prints its long description, option examples included, before it). */
  afterUsage?: boolean;
  /** The head stood alone over a blank line and its description paragraphs (stylelint): each deeper paragraph is its own. */
  describedBelowBlank?: boolean;
}

export interface Paragraph {
  lines: string[];
  afterUsage: boolean;
  /** True when an option, positional or command entry was seen before this paragraph. */
  afterEntries: boolean;
  /** Each line's indent: deeper lines of a value list continue its item (numfmt's `1K = 1000,` under `auto`). */
  indents: number[];
}

/** A line that sat in an options section but was read as neither an entry nor its description. */
export interface UnparsedLine {
  line: number;
  text: string;
}

export interface HelpScan {
  usageForms: string[];
  entries: Entry[];
  paragraphs: Paragraph[];
  seenUsage: boolean;
  unparsed: UnparsedLine[];
  /** Indented lines of `Synopsis:` / `Examples:` sections, which may show positionals the usage line omits. */
  synopsisLines: string[];
}

const SECTION_HEADER = /^ {0,3}([A-Za-z][\w ,/()'-]{0,60}):$/;
/** A flag spelling opening a line (jpeginfo `-, --stdin`: the bare `-` for standard input before a long spelling too). */
// (lcov genhtml `--(no-)sort`: the negating prefix in parentheses, as `--[no-]sort`)
export const OPTION_START = /^(?:-{1,2}[A-Za-z0-9?#@[]|-, --[A-Za-z0-9]|--\(no-?\)[A-Za-z])/;
const MAX_USAGE_LINES = 40;
/** A line of yargs tags only: `[string] [choices: "a", "b"] [default: "a"]` (the last may wrap on). */
const YARGS_TAG = String.raw`\[(?:string|number|boolean|array|count|choices:|default:|required|deprecated)[^\]]*`;
const YARGS_TAG_LINE = new RegExp(String.raw`^(?:${YARGS_TAG}\]\s*){0,6}${YARGS_TAG}\]?\s*$`);
/** An English function word outside brackets: the line is prose (`word is key=value`), not a wrapped form. */
/** `--mode=git is still accepted`, `--force are …`: one spelling, one space, then a finite verb. */
const SPELLING_AS_SUBJECT = /^-{1,2}[A-Za-z0-9][\w-]*(?:=\S+)? (?:is|are|was|were|has|have|will|can|must|should|may)\s+[a-z]/;
const PROSE_WORD = /(^|\s)(is|are|the|an?|to|from|of|for|and|with|by|as|in|on|this|that|be|will|can)(\s|$)/i;
const MAX_USAGE_FORM_CHARS = 2000;
const MAX_ENTRIES = 1000;
const MAX_DESCRIPTION_LINES = 40;
const MAX_UNPARSED = 200;
const MAX_SYNOPSIS_LINES = 20;
/**
 * A section title common enough to be known without its colon (meow prints `  Usage`, `  Options`;
 * sade `  Available Commands`, one qualifying word before it).
 */
const BARE_TITLE = /^(?:(?:available|global|other|common)\s+)?(usage|options|flags|arguments|commands|examples?|synopsis)$/i;
/** A title saying the options under it take a value: `Options that take arguments`, `Options with values`. */
const VALUE_SECTION = /^\s*(?:options|flags|switches)\s+(?:(?:that|which)\s+(?:take|require)s?|with)\s+(?:an?\s+)?(?:arguments?|values?|parameters?)\s*$/i;
/** tree: `  ------- Listing options -------`: a title framed by rules of dashes (or `=`) on both sides. */
const RULED_TITLE = /^(?:-{3,}|={3,})\s+([A-Za-z][A-Za-z0-9/&' -]{0,60}?)\s+(?:-{3,}|={3,})$/;
/** A line that is one parenthesized group: under a usage form, a comment when it reads as a sentence. */
const PARENTHESIZED_COMMENT = /^\([^()]{1,300}\)$/;
/** `-c     write on standard output          -oFILE   write output to 'FILE'`: a short option, its text, a wide gap, another short option and its text. */
/** bsdtar `-c Create  -r Add/Replace  -t List`: flag, one space, a word or two; two spaces before the next. */
const FLAG_ROW = /^-[A-Za-z0-9] [A-Z][\w/-]{0,20}(?: [\w/-]{1,20})?(?:\s{2,}-[A-Za-z0-9] [A-Z][\w/-]{0,20}(?: [\w/-]{1,20})?){2,12}$/;
const TWO_COLUMNS = /^(-[A-Za-z0-9?#@]\S{0,10}\s{2,}\S.{0,80}?\S)\s{4,}(-[A-Za-z0-9?#@]\S{0,10}\s{2,}\S.{0,80})$/;

/** The right column of the first two-column line (lzop, zip), which the lines above it share too. */
function firstRightColumn(lines: readonly string[]): { indent: number; column: number } | null {
  for (const line of lines.slice(0, MAX_TWO_COLUMN_LOOKUP)) {
    const trimmed = line.trimStart();
    const columns = TWO_COLUMNS.exec(trimmed);
    if (columns !== null) return { indent: line.length - trimmed.length, column: line.length - (columns[2] ?? '').length };
  }
  return null;
}
const MAX_TWO_COLUMN_LOOKUP = 400;
/** A line opening with a yargs tag: `[choices: "stylish", …`, `[default: 5]`, `[string] [required]`. */
const YARGS_TAG_OPENER = /^\[(?:choices|default|aliases|deprecated):\s|^\[(?:string|number|boolean|array|count|required)\](?:\s|$)/;
// ffuf titles its examples `EXAMPLE USAGE:`
/**
 * A prose line that stops where a sentence cannot end (`If neither -o, --dir, or`): the next line at
 * its indent goes on with the sentence, even when a flag opens it (`--replace is passed, …`).
 */
/**
 * git-lfs (asciidoc) `--verbose:` then `-v:` alone on their lines, the description under both: a
 * spelling alone closed by a colon heads an entry, and such lines in a row spell one option.
 */
/**
 * cfssl under `Usage of gencert:`: `    Generate a new key and cert from CSR:` over forms indented
 * deeper, a blank line, `    Re-generate a CA cert with the CA key and CSR:` over more: a sentence
 * closed by a colon captions the forms under it, and is none of them.
 */
const FORM_CAPTION = /^[A-Z][\w-]*(?: [\w-]+){2,15}:$/;
const COLON_CLOSED_SPELLING = /^--?[A-Za-z0-9][\w-]{0,40}:$/;
const UNFINISHED_SENTENCE = /(?:,|\s(?:and|or|nor|neither|either|the|an?|of|to|with|by|from|via))$/i;

/**
 * `$ napi build ...`, `$ tool sub <path> [--flag]`: a prompt, lower-case program and command words, then at
 * least one placeholder, group or `...` (`$ cowsay hello` is an example with a real value).
 */
// (hashdeep `$ hashdeep [OPTION]... [FILES]...`: an ellipsis glued to a group repeats it)
const PROMPT_FORM = /^\$ [a-z][\w.-]{0,60}(?: [a-z][\w-]{0,40}){0,3}(?: +(?:\[[^\]]{0,60}\](?:\.{2,3})?|<[^>]{0,60}>(?:\.{2,3})?|\.{3}))+$/;

/** zip `Zip 3.0 (July 5th 2008). Usage:`: the title closing a line after a sentence, the forms below it. */
const SENTENCE_THEN_USAGE = /^\s*\S.{0,100}?[.!]\s+usage:\s*()$/i;

const SYNOPSIS_TITLE = /^(synopsis|examples?|usage examples?|examples? usage)$/i;

function classifySection(title: string): SectionKind {
  const lowered = title.toLowerCase();
  // timeit `Command line usage:`
  if (/^(?:command[- ]line )?usage$/.test(lowered)) return 'usage';
  if (/\bcommands?\b|\bsubcommands?\b/.test(lowered) && !/\boptions?\b|\bflags?\b/.test(lowered)) return 'commands';
  if (/\barguments?\b|\bpositionals?\b/.test(lowered) && !/\boptions?\b|\bflags?\b/.test(lowered)) return 'positionals';
  if (/\boptions?\b|\bflags?\b|\bswitches\b|\bparameters\b/.test(lowered)) return 'options';
  if (/\bexamples?\b|\benvironment\b|\bsee also\b|\bexit status\b|\bnotes?\b|\bauthors?\b/.test(lowered)) return 'other';
  return 'options';
}

function looksLikeBareUsage(line: string): boolean {
  // yargs prints `prog [options] <files..>` with no "Usage:" prefix.
  const trimmed = line.trim();
  // (jsonnet `jsonnet {<option>} <filename>`: braces repeat what they hold; cog `cog [OPTIONS] [INFILE |
  // @FILELIST | &FILELIST] ...`: a spaced ellipsis repeating the last group)
  if (/^[A-Za-z$][\w.$-]{0,60}( +(\[[^\]]{0,60}\]|<[^>]{0,60}>|\{[^}]{0,60}\})(\.{2,3})?)+(?: \.{3})?$/.test(trimmed)) return true;
  // …and a yargs command's own help, `redocly lint [apis...]`: a lower-case program and command
  // words before the placeholders (`Manage the [thing]` is a sentence)
  // (typeorm `typeorm migration:generate <path>`: a command word may join a topic with a colon)
  const words = /^([a-z][\w.-]{0,60}(?: [a-z][\w-]{0,40}(?::[a-z][\w-]{0,40}){0,3}){1,3})( +(\[[^\]]{0,60}\]|<[^>]{0,60}>)(\.{2,3})?)+$/.exec(trimmed);
  if (words !== null && !PROSE_WORD.test(words[1] ?? '')) return true;
  // optionator textlint `textlint [options] file.md [file|dir|glob*]`: the options group right after the
  // program, then argument words with no prose among them (bare words too: an example file name)
  // (a bare word ends on no dot, so an ellipsis after it is read one way only: the regex stays linear)
  const optionsFirst = /^[a-z][\w.-]{0,60} \[(?:options|OPTIONS|flags|OPTION)\](?:\.{3})?((?: +(?:\[[^\]]{0,60}\]|<[^>]{0,60}>|[\w*|/-](?:[\w.*|/-]{0,38}[\w*|/-])?)(?:\.{2,3})?)+)$/.exec(trimmed);
  return optionsFirst !== null && !PROSE_WORD.test((optionsFirst[1] ?? '').replace(/[[\]<>|*./-]/g, ' '));
}

/** `-NUM`, `-WIDTH`: an upper-case placeholder written like a flag (GNU `-NUM  same as --context=NUM`). */
function isPlaceholderFlag(trimmed: string): boolean {
  // …which its description uses (`same as --context=NUM`); mkcert's `-CAROOT` over `Print the CA…` is a flag
  const word = /^-([A-Z]{3,})(?:\s|$)/.exec(trimmed)?.[1];
  return word !== undefined && new RegExp(String.raw`\S\s.*\b${word}\b`).test(trimmed);
}

/**
 * GnuPG `Syntax: gpgv [options] [files]`, mmark `SYNOPSIS: mmark [OPTIONS] [FILE...]`: a form titled
 * `Syntax:` or `Synopsis:` on its own line (a program word, then usage syntax).
 */
const SYNTAX_FORM = /^(?:syntax|synopsis):\s+([a-z][\w.-]{0,40}\s+[[<].*)$/i;
/**
 * patchelf `syntax: patchelf` alone, its form one group a line under it (`  [--set-rpath RPATH]`): the
 * title and the program word, the form going on over deeper lines that open with a bracket.
 */
const SYNTAX_TITLE_ALONE = /^(?:syntax|synopsis):\s+([a-z][\w.-]{0,40})$/i;
/**
 * `  [--set-soname SONAME]<TAB><TAB>Sets 'DT_SONAME' entry to SONAME.`: a form listed one option group
 * a line, glossed after a wide gap; the group goes on the form, the gloss is no part of it.
 */
const GLOSSED_OPTION_GROUP = /^(\[-[^\]]{1,100}\]) {2,}\S/;
/** `  or   prog …`: one more usage form, introduced by `or` without a colon. */
const BARE_OR_FORM = /^\s+or\s+(\S.*)$/;
/** `  USAGE` alone on its line, indented a little (lipgloss-styled helps). */
const INDENTED_CAPITAL_USAGE = /^ {1,4}USAGE\s*$/;
/** `SETTINGS`, `CUSTOMIZATION`: a title in capitals. */
const CAPITAL_TITLE = /^[A-Z][A-Z ]{1,40}$/;

class Scanner {
  readonly result: HelpScan = { usageForms: [], entries: [], paragraphs: [], seenUsage: false, unparsed: [], synopsisLines: [] };
  private section: SectionKind = 'none';
  /** Indent of the title without a colon that opened the current section (meow / sade titles are indented by two), else 0. */
  private sectionIndent = 0;
  /** Inside a `Synopsis:` / `Examples:` section. */
  private inSynopsis = false;
  private current: Entry | null = null;
  /** The line of the last usage form printed without a `Usage:` title (yargs), or null. */
  private bareUsageLine: number | null = null;
  /** The entry before a blank line: clap's long help continues a description after one. */
  private beforeBlank: Entry | null = null;
  /** The indent of the first paragraph that described an option head standing alone over a blank line, or null. */
  private belowBlankIndent: number | null = null;
  private paragraph: Paragraph | null = null;
  private usageMode: 'header' | 'inline' | null = null;
  /** A blank line inside the indented forms under a `Usage:` title: the next form of the same program resumes them. */
  private usagePaused = false;
  private usageLineCount = 0;
  /** Indent of the line the last usage form started on. */
  private usageIndent = 0;
  /** Indent of the captions over the forms under a usage title (`    Generate a new key…:`), or null. */
  private formCaptionIndent: number | null = null;
  /** Where an inline form's text starts (`Usage:  enca …`: the column of `enca`); null for a title alone. */
  private inlineFormColumn: number | null = null;
  /** The index of the line being read (set by `line`; a rule may look at the line after it). */
  private lineIndex = 0;

  /** A sentence closed by a colon right over a line indented deeper that opens with no dash: a caption of forms. */
  private isFormCaption(trimmed: string, indent: number): boolean {
    const next = this.lines[this.lineIndex + 1] ?? '';
    return FORM_CAPTION.test(trimmed) && PROSE_WORD.test(trimmed.slice(0, -1)) && indentOf(next) > indent && !OPTION_START.test(next.trim());
  }
  /** Indent of the previous line when it was prose (a definition list such as GNU cut's ranges). */
  private proseIndent: number | null = null;
  /** Where a two-column line (lzop, zip) put its right column, and the indent of its left one. */
  private rightColumn: { indent: number; column: number } | null = null;
  /** See `Entry.block`. */
  private block = 0;
  /** Under a title such as `Options that take arguments:` (until the next title). */
  private valueSection = false;

  /** oclif / gh print section titles in capitals without a colon (`USAGE`, `FLAGS`, `ARGUMENTS`). */
  private readonly capitalTitles: boolean;
  /**
   * lipgloss-styled helps (freeze) indent their capital titles alike: `  USAGE`, `  SETTINGS` on lines
   * of their own. The indent of such a `USAGE` line, or null.
   */
  private readonly capitalTitleIndent: number | null;

  constructor(
    private readonly lines: readonly string[],
    private readonly skip: (index: number) => boolean,
    private readonly usageHeader: number | null,
  ) {
    this.capitalTitles = lines.some((line) => /^USAGE(?:\s*$|\s+\S)/.test(line));
    const indentedUsage = lines.find((line) => INDENTED_CAPITAL_USAGE.test(line));
    this.capitalTitleIndent = indentedUsage === undefined ? null : indentOf(indentedUsage);
    this.rightColumn = firstRightColumn(lines);
  }

  run(): HelpScan {
    for (let index = 0; index < this.lines.length; index += 1) this.line(index, this.lines[index] ?? '');
    this.closeParagraph();
    return this.result;
  }

  private closeParagraph(): void {
    if (this.paragraph !== null && this.paragraph.lines.length > 0) this.result.paragraphs.push(this.paragraph);
    this.paragraph = null;
  }

  private line(index: number, line: string): void {
    this.lineIndex = index;
    if (this.skip(index)) {
      this.current = null;
      this.beforeBlank = null;
      this.proseIndent = null;
      this.closeParagraph();
      // Go's `Usage of stringer:` (read by go-flag.ts) heads the indented forms under it
      this.usageMode = index === this.usageHeader ? 'header' : null;
      if (index === this.usageHeader) {
        this.result.seenUsage = true;
        this.section = 'usage';
      }
      return;
    }
    const trimmed = line.trim();
    const indent = indentOf(line);
    if (trimmed.length === 0) {
      if (this.current !== null) this.beforeBlank = this.current;
      this.current = null;
      if (this.usageMode !== null) this.usagePaused = this.usageMode === 'header' && this.result.usageForms.length > 0;
      // `  USAGE`, a blank line, then the indented forms (lipgloss): the title still heads them
      if (!(this.usageMode === 'header' && this.result.usageForms.length === 0)) this.usageMode = null;
      this.proseIndent = null;
      this.closeParagraph();
      return;
    }
    const wasProseIndent = this.proseIndent;
    this.proseIndent = null;
    if (this.inSynopsis && indent > 0 && this.result.synopsisLines.length < MAX_SYNOPSIS_LINES) this.result.synopsisLines.push(trimmed);
    if (this.usagePaused) this.resumeUsage(trimmed, indent);
    if (this.usageLine(line, trimmed, indent, index)) return;
    const title = this.titleWithoutColon(index, trimmed, indent);
    if (title !== null ? this.openSection(title, trimmed) : this.sectionHeader(line, trimmed)) {
      // only a title without a colon (meow / sade) sets its entries deeper; `  Commands:` may list at its own indent
      this.sectionIndent = title !== null ? indent : 0;
      return;
    }
    if (this.continuation(trimmed, indent)) return;
    // click example `sqlite-utils data.db "select …" \` then `-p age 1`: a line after a shell line
    // continuation is more of that command, not an option entry
    const shellContinued = /\s\\$/.test(this.lines[index - 1] ?? '');
    if (!shellContinued && this.optionEntry(line, trimmed, indent, wasProseIndent)) return;
    const keyword = shellContinued ? null : positionalOrKeyword(trimmed);
    if (keyword !== null && this.optionEntry(`${' '.repeat(indent)}${keyword}`, keyword, indent, wasProseIndent)) return;
    if (this.namedEntry(trimmed, indent)) return;
    this.prose(trimmed, indent, index, wasProseIndent);
  }

  /**
   * Getopt::Long licensecheck sets its forms apart by blank lines under `Usage:`: `licensecheck [ --help
   * | --version ]`, a blank line, `licensecheck [OPTION...] PATH [PATH...]`. An indented line naming the
   * last form's program, at its indent, is one more form.
   */
  private resumeUsage(trimmed: string, indent: number): void {
    this.usagePaused = false;
    if (this.formCaptionIndent === indent && this.isFormCaption(trimmed, indent)) {
      this.usageMode = 'header';
      return;
    }
    const lastForm = this.result.usageForms[this.result.usageForms.length - 1];
    const program = lastForm === undefined ? undefined : /^\S*/.exec(lastForm)?.[0];
    if (indent > 0 && indent === this.usageIndent && program !== undefined && program.length > 0 && /^\S*/.exec(trimmed)?.[0] === program) this.usageMode = 'header';
  }

  /** `syntax: patchelf` over deeper lines opening with a bracket (SYNTAX_TITLE_ALONE), else null. */
  private syntaxTitleAlone(line: string, index: number): RegExpExecArray | null {
    const next = this.lines[index + 1] ?? '';
    return indentOf(next) > 0 && next.trim().startsWith('[') ? SYNTAX_TITLE_ALONE.exec(line) : null;
  }

  private usageLine(line: string, trimmed: string, indent: number, index: number): boolean {
    // citty prints its title in capitals with the form on the same line: `USAGE giget [OPTIONS] <TEMPLATE> [DIR]`
    // (babeltrace's hand-written `usage : babeltrace [OPTIONS] FILE...`: a space before the colon)
    const usageMatch = /^\s*usage ?:\s*(.*)$/i.exec(line) ?? /^\s*USAGE\s+(\S.*)$/.exec(line) ?? SYNTAX_FORM.exec(line) ?? SENTENCE_THEN_USAGE.exec(line) ?? this.syntaxTitleAlone(line, index);
    if (usageMatch && (!this.result.seenUsage || this.usageMode === null)) {
      this.closeParagraph();
      this.current = null;
      this.beforeBlank = null;
      this.result.seenUsage = true;
      const rest = (usageMatch[1] ?? '').trim();
      if (rest.length > 0) {
        this.result.usageForms.push(rest);
        this.usageMode = 'inline';
        this.inlineFormColumn = line.indexOf(rest);
      } else {
        this.usageMode = 'header';
      }
      this.section = 'usage';
      this.inSynopsis = false;
      return true;
    }
    if (this.usageMode !== null) {
      const forms = this.result.usageForms;
      const orMatch = /^\s*or:\s+(.*)$/i.exec(line);
      if (orMatch) {
        forms.push((orMatch[1] ?? '').trim());
        return true;
      }
      // gawk prints each form with its own title: `Usage: gawk … -f progfile [--] file ...` then
      // `Usage: gawk … [--] 'program' file ...`: a `Usage:` line right under a form of the same program is one more form
      const repeatedTitle = usageMatch !== null && this.usageMode === 'inline' ? (usageMatch[1] ?? '').trim() : '';
      if (repeatedTitle.length > 0 && /^\S+/.exec(repeatedTitle)?.[0] === /^\S+/.exec(forms[forms.length - 1] ?? '')?.[0]) {
        forms.push(repeatedTitle);
        return true;
      }
      // gocryptfs `  or   gocryptfs [OPTIONS] CIPHERDIR MOUNTPOINT`: `or` without its colon, before the program again
      const bareOr = BARE_OR_FORM.exec(line);
      const firstProgram = forms[0] === undefined ? undefined : /^\S+/.exec(forms[0])?.[0];
      if (bareOr !== null && firstProgram !== undefined && /^\S+/.exec(bareOr[1] ?? '')?.[0] === firstProgram) {
        forms.push((bareOr[1] ?? '').trim());
        return true;
      }
      if (indent > 0 && trimmed.startsWith('#')) return true; // `# from file to file`: a comment, not a form
      if (this.usageMode === 'header' && indent > 0 && (this.formCaptionIndent ?? indent) === indent && this.isFormCaption(trimmed, indent)) {
        this.formCaptionIndent = indent;
        return true;
      }
      // skopeo's cobra template prints its form flush left, right under `Usage:`
      // (yargs postcss prints one form a line there: a flush-left line right under such a form, naming its program, is one more)
      const previousForm = forms[forms.length - 1];
      const nextFlushForm =
        indent === 0 && this.usageMode === 'header' && previousForm !== undefined && (this.lines[index - 1] ?? '') === previousForm && /^\S+/.exec(trimmed)?.[0] === /^\S+/.exec(previousForm)?.[0];
      // (mri degit `Usage:`, a blank line, then `degit <src>[#ref] [<dest>] [options]` flush left: the title over the first form)
      const spacedTitle = forms.length === 0 && (this.lines[index - 1] ?? '').trim().length === 0;
      const titleAbove = (this.lines[index - (spacedTitle ? 2 : 1)] ?? '').trim();
      const flushLeftForm = indent === 0 && this.usageMode === 'header' && (/^usage:$/i.test(titleAbove) || SENTENCE_THEN_USAGE.test(titleAbove) || nextFlushForm);
      if (flushLeftForm && !OPTION_START.test(trimmed) && !PROSE_WORD.test(trimmed.replace(/\[[^\]]*\]|<[^>]*>|\([^)]*\)|\{[^}]*\}/g, ' '))) {
        this.usageLineCount += 1;
        this.usageIndent = indent;
        forms.push(trimmed);
        return true;
      }
      // optparse `       (STDIN is assumed if no INPUTFILE is given)`: a parenthesized sentence under the form is a comment on it
      if (indent > 0 && PARENTHESIZED_COMMENT.test(trimmed) && PROSE_WORD.test(trimmed.slice(1, -1))) return true;
      // BSD nc: `\tCommand Summary:` indented under the wrapped form is a section title, not more form
      const sectionTitle = /^[A-Z][A-Za-z]*(?: [A-Za-z]+){0,4}:$/.test(trimmed) || RULED_TITLE.test(trimmed);
      if (indent > 0 && !OPTION_START.test(trimmed) && !sectionTitle && this.usageLineCount < MAX_USAGE_LINES) {
        const firstWord = /^\S*/.exec(trimmed)?.[0] ?? '';
        const lastForm = forms[forms.length - 1];
        const programOfLast = lastForm === undefined ? undefined : /^\S*/.exec(lastForm)?.[0];
        // oclif wraps a long form under `USAGE` onto deeper lines: `  $ oclif generate NAME [--a <value>]` / `    [-n]`
        // Pod::Usage wraps it at the same indent: `    pod2text [-aclostu] … [-q quotes]` / `    [--nourls] … [input [output ...]]`
        const wrappedFlush = this.usageMode === 'header' && lastForm !== undefined && indent === this.usageIndent && trimmed.startsWith('[') && (this.lines[index - 1] ?? '').trim().length > 0;
        // (oclif wraps inside a bracket too: `… [-t` / `    breaking|non-breaking|all] [-o <value>]`: a last form
        // with a bracket left open goes on over a deeper line)
        const openBracket = lastForm !== undefined && (lastForm.match(/\[/g) ?? []).length > (lastForm.match(/\]/g) ?? []).length;
        const wrapped = wrappedFlush || (this.usageMode === 'header' && lastForm !== undefined && indent > this.usageIndent && (/^[[(<{]/.test(trimmed) || openBracket));
        // zip `  The default action is to add …` under its form: a sentence not naming the program is no further form
        const proseAfterForm = lastForm !== undefined && firstWord !== programOfLast && PROSE_WORD.test(trimmed.replace(/\[[^\]]*\]|<[^>]*>|\([^)]*\)|\{[^}]*\}/g, ' '));
        // enca `Usage:  enca [-L LANGUAGE] [OPTION]... [FILE]...` over `        enconv [-L LANGUAGE] …`: a line
        // aligned with the inline form's program, opening with another program word before usage syntax, is
        // one more form (the program under another name), not the first one wrapped
        const alignedForm = this.usageMode === 'inline' && indent === this.inlineFormColumn && /^[a-z][\w.-]{0,40} +[[<]/.test(trimmed);
        if (!wrapped && !proseAfterForm && (this.usageMode === 'header' || lastForm === undefined || firstWord === programOfLast || alignedForm)) {
          this.usageLineCount += 1;
          this.usageIndent = indent;
          // `stringer [flags] -type T files... # Must be a single package`: the comment is no part of the form
          // (`(?<!\s)`: the match starts where its whitespace run does; starts inside a run rescanned it, ReDoS)
          forms.push(trimmed.replace(/(?<!\s)\s+#\s.*$/, ''));
          return true;
        }
        const glossedGroup = lastForm === undefined ? null : GLOSSED_OPTION_GROUP.exec(trimmed);
        if (lastForm !== undefined && glossedGroup !== null) {
          this.usageLineCount += 1;
          if (lastForm.length < MAX_USAGE_FORM_CHARS) forms[forms.length - 1] = `${lastForm} ${glossedGroup[1] ?? ''}`;
          return true;
        }
        // A wrapped form goes on with usage syntax; prose (`word is key=value`) ends the usage.
        if (!PROSE_WORD.test(trimmed.replace(/\[[^\]]*\]|<[^>]*>|\([^)]*\)|\{[^}]*\}/g, ' '))) {
          this.usageLineCount += 1;
          if (lastForm.length < MAX_USAGE_FORM_CHARS) forms[forms.length - 1] = `${lastForm} ${trimmed}`;
          return true;
        }
      }
      this.usageMode = null;
      this.section = 'none';
      this.inSynopsis = false;
    }
    // erb prints a stray line first (`print this help`), then `erb [switches] [var=value...] [inputfile]`
    // right over its option lines: a bare form with option lines under it is the usage still
    const overOptions = indent === 0 && OPTION_START.test((this.lines[index + 1] ?? '').trim()) && indentOf(this.lines[index + 1] ?? '') > 0;
    const nothingBefore = (this.result.paragraphs.length === 0 && this.paragraph === null) || this.underHeadline(trimmed);
    // clipanion (napi) prints a command's form as a prompt line under its description, without a title:
    // `$ napi build ...`, flush left before any entry
    const promptForm = indent === 0 && PROMPT_FORM.test(trimmed);
    if (!this.result.seenUsage && this.result.entries.length === 0 && (((nothingBefore || overOptions) && looksLikeBareUsage(line)) || promptForm)) {
      this.result.usageForms.push(trimmed);
      this.result.seenUsage = true;
      this.bareUsageLine = index;
      return true;
    }
    // yargs prints one line per form (`nyc [command] [options]`, `nyc [options] [bin-to-instrument]`): the next
    // line naming the same program is one more form
    const lastForm = this.result.usageForms[this.result.usageForms.length - 1];
    if (this.bareUsageLine === index - 1 && lastForm !== undefined && looksLikeBareUsage(line) && /^\S+/.exec(trimmed)?.[0] === /^\S+/.exec(lastForm)?.[0]) {
      this.result.usageForms.push(trimmed);
      this.bareUsageLine = index;
      return true;
    }
    // fxparser `$ fxparser [-ns|-a] <filename> [-o out.json]` then `$ cat x.xml | fxparser [-ns|-a] [-o out.json]`:
    // the next prompt line running the same program (maybe fed by a pipe) is one more form
    const promptProgram = lastForm === undefined ? undefined : /^\$ ([a-z][\w.-]{0,60}) /.exec(lastForm)?.[1];
    if (this.bareUsageLine === index - 1 && promptProgram !== undefined && indent === 0 && /^\$ \S/.test(trimmed) && /\[[^\]]{1,60}\]|<[^>]{1,60}>/.test(trimmed) && (trimmed.startsWith(`$ ${promptProgram} `) || trimmed.includes(`| ${promptProgram} `))) {
      this.result.usageForms.push(trimmed);
      this.bareUsageLine = index;
      return true;
    }
    // Pod::Usage (piconv) wraps the form onto deeper lines of groups: `      [-p|--perlqq] [-C N|-c]`
    if (this.bareUsageLine === index - 1 && lastForm !== undefined && indent > 0 && /^(?:\[[^\]]{0,80}\]\s*)+$/.test(trimmed) && lastForm.length < MAX_USAGE_FORM_CHARS) {
      this.result.usageForms[this.result.usageForms.length - 1] = `${lastForm} ${trimmed}`;
      this.bareUsageLine = index;
      return true;
    }
    return false;
  }

  /**
   * jsonnet `Jsonnet commandline interpreter … v0.20.0`, a blank line, then `jsonnet {<option>}
   * <filename>`: a one-line headline naming the program (its first word, in any case) is all that
   * comes before the bare form (also the man page's `prog - what it does`: cog `cog - generate content
   * with inlined Python code.`, a blank line, then `cog [OPTIONS] [INFILE | @FILELIST] ...`).
   */
  private underHeadline(trimmed: string): boolean {
    const [headline, ...others] = this.result.paragraphs;
    if (headline === undefined || others.length > 0 || this.paragraph !== null || headline.lines.length !== 1) return false;
    const program = /^\S+/.exec(trimmed)?.[0] ?? '';
    return program.length > 1 && (/^\S+/.exec(headline.lines[0] ?? '')?.[0] ?? '').toLowerCase() === program.toLowerCase();
  }

  /**
   * A section title printed without a colon: oclif's capitals (`FLAGS`, when the help has a `USAGE`
   * title), meow's `  Usage` / `  Options` over deeper lines, or a flush-left group name after a
   * blank line with option entries under it (yargs groups: `Reporting options`, `Coverage thresholds`).
   */
  private titleWithoutColon(index: number, trimmed: string, indent: number): string | null {
    if (this.usageMode !== null) return null;
    const ruled = RULED_TITLE.exec(trimmed);
    if (ruled !== null) return ruled[1] ?? null;
    // meow: `  Usage`, `  Options`, `  Examples` indented by two, their content deeper
    // (command-line-usage: `Synopsis` flush left, a blank line, then its content indented by two; not
    // tsc's `COMMON COMMANDS`, a blank line, then example command lines)
    const spaced = (this.lines[index + 1] ?? '').trim().length === 0 && !/commands$/i.test(trimmed);
    const below = spaced ? (this.lines[index + 2] ?? '') : (this.lines[index + 1] ?? '');
    if (indent <= 4 && BARE_TITLE.test(trimmed) && (this.lines[index - 1] ?? '').trim().length === 0 && indentOf(below) > indent) return trimmed;
    if (indent > 0 && indent === this.capitalTitleIndent && CAPITAL_TITLE.test(trimmed) && (this.lines[index - 1] ?? '').trim().length === 0) return trimmed;
    if (indent > 0) return null;
    if (this.capitalTitles && /^[A-Z][A-Z ]{1,40}$/.test(trimmed)) return trimmed;
    if (!/^[A-Z][A-Za-z0-9]*( [A-Za-z0-9]+){0,4}$/.test(trimmed) || (this.lines[index - 1] ?? '').trim().length > 0) return null;
    const next = this.lines[index + 1] ?? '';
    return indentOf(next) > 0 && OPTION_START.test(next.trim()) ? trimmed : null;
  }

  private sectionHeader(line: string, trimmed: string): boolean {
    const header = SECTION_HEADER.exec(line);
    // `  auto       accept optional suffix:` is a definition-list item whose text ends in a colon
    if (!header || OPTION_START.test(trimmed) || /\S {2,}\S/.test(trimmed)) return false;
    return this.openSection(header[1] ?? '', trimmed);
  }

  private openSection(rawTitle: string, trimmed: string): boolean {
    const title = rawTitle.trim();
    this.block += 1;
    this.valueSection = VALUE_SECTION.test(title);
    this.closeParagraph();
    this.current = null;
    this.beforeBlank = null;
    this.section = classifySection(title);
    // GNU `MODE determines behavior with write errors on the outputs:` is a sentence introducing a
    // value list, not a section title: it opens the paragraph the list joins (see section-value-lists.ts)
    // numfmt's `UNIT options:` titles the values of the options whose placeholder is UNIT
    if ((/^[A-Z][A-Z_]{1,20} [a-z]+( \S+){2,}$/.test(title) || this.namesValue(title)) && this.result.entries.length > 0) {
      this.paragraph = { lines: [trimmed], afterUsage: this.result.seenUsage, afterEntries: true, indents: [0] };
    }
    this.inSynopsis = SYNOPSIS_TITLE.test(title);
    if (this.inSynopsis) this.section = 'other';
    // optipng opens with `Synopsis:` over `    optipng [options] files ...` and prints no `Usage:`:
    // a synopsis before any entry, in a help without a usage title, is the usage
    if (/^synopsis$/i.test(title) && !this.result.seenUsage && this.result.entries.length === 0 && !this.lines.some((line) => /^\s*usage\b/i.test(line))) {
      this.inSynopsis = false;
      this.section = 'usage';
    }
    if (this.section === 'usage') {
      this.usageMode = 'header';
      this.result.seenUsage = true;
    }
    return true;
  }

  /** `UNIT options`, `WHEN values`: a title whose first word is the placeholder of an option seen before. */
  private namesValue(title: string): boolean {
    const word = /^([A-Z][A-Z_]{1,20}) [a-z]+$/.exec(title)?.[1];
    return word !== undefined && this.result.entries.some((entry) => (entry.option?.valueName ?? '').replace(/[<>[\]=]/g, '') === word);
  }

  /**
   * citty right-aligns its option heads: after `--no-install` (no description), `   --gitInit    Initialize
   * git repository` is deeper, but its description starts at the column the option entries share: it
   * is the next option, not the description of the one above.
   */
  private describedAtSharedColumn(trimmed: string, indent: number): boolean {
    const gap = /\s{2,}/.exec(trimmed);
    if (gap === null) return false;
    const shared = [...this.result.entries].reverse().find((entry) => entry.kind === 'option' && entry.descriptionColumn !== null)?.descriptionColumn;
    return shared !== undefined && shared !== null && indent + gap.index + gap[0].length === shared;
  }

  /**
   * Ruby OptionParser kramdown: `        --line-width ARG`, then `          Defines the line width …`, a
   * blank line, `          Default: 72`: an option head alone on its line, its description on the
   * lines below two columns deeper, and after a blank line another paragraph at that very column is
   * more of it (its `Default:` line too). Only a head with nothing after its spelling and a description
   * of its own lines; a paragraph at another indent is not.
   */
  private paragraphsUnderHead(entry: Entry, column: number, indent: number): boolean {
    return entry.kind === 'option' && entry.option?.rest === '' && column === entry.indent + 2 && indent === column && entry.description.length > 0;
  }

  /** A description line of the current entry (or, after a blank line, of a clap long-help entry). */
  private continuation(trimmed: string, indent: number): boolean {
    let entry = this.current;
    if (entry === null && this.beforeBlank !== null) {
      // clap long help: `  <MODE>\n          What mode…\n\n          Possible values:` — deeper than the head
      const column = this.beforeBlank.descriptionColumn;
      const deep = column !== null ? indent >= column && (column > this.beforeBlank.indent + 2 || this.paragraphsUnderHead(this.beforeBlank, column, indent)) : indent > this.beforeBlank.indent + 4;
      // stylelint: `    --fix[=<mode>]`, a blank line, `      Automatically fix…` two deeper: an option's head
      // alone over a blank line, then paragraphs deeper than it, all its description
      // (wait-on ` -c, --config`, a blank line, `  js or json config file`: one deeper, and once the help has
      // described a head so, a later head's paragraph at that same indent, even level with the head)
      const deeper = indent >= this.beforeBlank.indent + 2 || (indent > this.beforeBlank.indent && this.beforeBlank.option?.rest === '') || (indent === this.belowBlankIndent && this.beforeBlank.description.length === 0);
      const below = this.beforeBlank.kind === 'option' && deeper && (this.beforeBlank.describedBelowBlank === true || (this.beforeBlank.description.length === 0 && column === null && this.beforeBlank.option?.rest === ''));
      if ((deep || below) && !OPTION_START.test(trimmed)) {
        entry = this.beforeBlank;
        if (below && entry.describedBelowBlank !== true) this.belowBlankIndent = indent;
        if (below) entry.describedBelowBlank = true;
      }
    }
    if (entry === null) return false;
    // yargs right-aligns its tags, and a long tag line starts left of the description, even left of
    // the head: `  [string] [choices: "time-asc", …]` under `      --sort   sort by…` still belongs to it
    if (YARGS_TAG_LINE.test(trimmed) && entry.description.length < MAX_DESCRIPTION_LINES) {
      entry.description.push(trimmed);
      this.current = entry;
      return true;
    }
    // tsc: `--watch, -w` alone at the margin, its description on the following lines at the margin too
    const flushLeft = entry.kind === 'option' && entry.indent === 0 && indent === 0 && (entry.descriptionColumn ?? 0) === 0 && entry.option?.rest === '' && !OPTION_START.test(trimmed);
    // GNU patch: `  --quoting-style=WORD   output…` then `    Valid WORDs are: …` two columns deeper
    // yargs puts a tag too long for its column on a line of its own, at any indent: `  [choices: "a", "b"…`
    const tagLine = entry.kind === 'option' && indent >= entry.indent && YARGS_TAG_OPENER.test(trimmed);
    const belowBlank = entry.describedBelowBlank === true && this.belowBlankIndent !== null && indent >= this.belowBlankIndent;
    const continuation = indent > entry.indent + 2 || flushLeft || tagLine || (indent === entry.indent + 2 && entry.kind === 'option') || belowBlank;
    // (git-lfs `  --no-modify-attrs:` at the description's indent, under `--no-excluded:`: such a head all the same)
    const colonClosedHead = entry.kind === 'option' && COLON_CLOSED_SPELLING.test(entry.head) && COLON_CLOSED_SPELLING.test(trimmed);
    const startsOption = colonClosedHead || (OPTION_START.test(trimmed) && (entry.descriptionColumn === null ? indent <= entry.indent + 2 || this.describedAtSharedColumn(trimmed, indent) : indent < entry.descriptionColumn - 2));
    if (!continuation || startsOption) return false;
    // citty right-aligns its argument names: `  TEMPLATE    Template name…` / `       DIR    A relative…`:
    // a word, a gap, then text at the entry's description column is the next entry
    const named = /^\S+\s{2,}/.exec(trimmed);
    if (entry.kind !== 'option' && named !== null && entry.descriptionColumn !== null && indent < entry.descriptionColumn && indent + named[0].length === entry.descriptionColumn) return false;
    if (entry.descriptionColumn === null && entry.description.length === 0) entry.descriptionColumn = indent;
    if (overflowsIntoDescription(entry, indent)) entry.descriptionColumn = indent;
    if (entry.description.length < MAX_DESCRIPTION_LINES) entry.description.push(trimmed);
    this.current = entry;
    return true;
  }

  private optionEntry(line: string, trimmed: string, indent: number, proseIndent: number | null): boolean {
    // cpanm lists `--self-upgrade`, `-U,--uninstall` under `Commands:`: a long spelling is an option wherever it stands
    // (argp crun: `--log=FILE` after the commands' blank line, no title between: a value glued by `=` too)
    const inCommands = this.section === 'commands' && !/^(?:-[A-Za-z0-9], ?)?--[A-Za-z0-9][\w-]*(?:=[A-Za-z<][\w<>-]{0,30})?(?:\s{2,}|$)/.test(trimmed);
    if (!OPTION_START.test(trimmed) || inCommands || this.result.entries.length >= MAX_ENTRIES) return false;
    // A flag-like line inside a definition list (`  N-M   from N'th…` then `  -M   from first…`) is prose.
    if (proseIndent !== null && proseIndent === indent) return false;
    if (isPlaceholderFlag(trimmed)) return false;
    if (this.continuesProseSentence(indent)) return false;
    if (this.twoColumnEntries(line, trimmed, indent, proseIndent)) return true;
    if (this.flagRow(trimmed, indent)) return true;
    const head = parseOptionHead(trimmed);
    if (head === null) return false;
    // mri degit `--mode=git is still accepted for compatibility.`: a spelling that is the subject of a
    // sentence (a verb after it, one space on) is prose about the option, no entry
    if (SPELLING_AS_SUBJECT.test(trimmed)) return false;
    this.closeParagraph();
    // `--color[=WHEN],` ending in a comma: the next line holds more spellings of the same option.
    const previous = this.current;
    if (previous?.kind === 'option' && previous.option !== null && previous.description.length === 0 && previous.option.rest.length === 0 && /,$/.test(previous.head)) {
      mergeSpellings(previous.option, head);
      previous.head = trimmed;
      const restOffset = head.rest.length > 0 ? line.lastIndexOf(head.rest.slice(0, 40)) : -1;
      previous.descriptionColumn = restOffset > indent ? restOffset : null;
      return true;
    }
    // OptionParser (rake) `-R, --rakelibdir RAKELIBDIR,     Auto-import…` then `--rakelib` alone: the
    // spelling list, ended by a comma before the description, goes on over the next line
    if (previous?.kind === 'option' && previous.option !== null && previous.description.length === 0 && head.rest.length === 0 && /,$/.test(splitHead(previous.head).head)) {
      mergeSpellings(previous.option, { ...head, rest: previous.option.rest });
      return true;
    }
    if (previous?.kind === 'option' && previous.option !== null && previous.description.length === 0 && COLON_CLOSED_SPELLING.test(previous.head) && COLON_CLOSED_SPELLING.test(trimmed)) {
      mergeColonClosedSpelling(previous.option, head);
      return true;
    }
    // (unicorn `-l {HOST:PORT|PATH},     listen on HOST:PORT or PATH` then a deeper `--listen   this may be
    // specified multiple times`: the long spelling goes on with more of the description beside it)
    // OptionParser `-N   do not load middleware…` then `--no-default-middleware` alone, four deeper: spellings
    // too long for the column go on over the next line (Ruby's summarize), so the lone long is the short's
    if (previous?.kind === 'option' && previous.option !== null && previous.option.longs.length === 0 && previous.option.shorts.length > 0 && previous.option.valueName === null && previous.option.choices === null && previous.description.length === 0 && previous.option.rest.length > 0 && indent === previous.indent + 4 && head.shorts.length === 0 && head.longs.length === 1 && head.valueName === null && head.choices === null && head.rest.length === 0 && !this.describedBelow(indent)) {
      mergeSpellings(previous.option, { ...head, rest: previous.option.rest });
      return true;
    }
    // (round 17: rdoc `-C[LEVEL],   Prints a report…` / `--[no-]coverage-report   Does not generate files.` /
    // `--[no-]dcov`: OptionParser wraps a spelling list that ended its first line with a comma over
    // several lines four deeper, the description beside them; a bare long one there is one more)
    if (previous?.kind === 'option' && previous.option !== null && previous.option.longs.length > 0 && previous.description.length > 0 && previous.description.length <= 3 && indent === previous.indent + 4 && head.shorts.length === 0 && head.longs.length === 1 && head.valueName === null && head.choices === null && head.rest.length === 0 && /,$/.test(splitHead(previous.head).head) && !this.describedBelow(indent)) {
      mergeSpellings(previous.option, { ...head, rest: previous.option.rest });
      return true;
    }
    // (slop `-I,   Add a path` over `--gem`: a bare short with a comma is an option of its own; the value written beside the short says more spellings follow)
    if (previous?.kind === 'option' && previous.option !== null && previous.option.longs.length === 0 && (previous.option.valueName !== null || previous.option.choices !== null) && previous.description.length === 0 && previous.option.rest.length > 0 && indent > previous.indent && head.shorts.length === 0 && head.rest.length > 0 && /,$/.test(splitHead(previous.head).head)) {
      mergeSpellings(previous.option, { ...head, rest: previous.option.rest });
      previous.description.push(head.rest);
      return true;
    }
    if (previous?.kind === 'option' && previous.option !== null && previous.indent <= indent && continuesSpelling(previous.option, previous.description, head)) {
      // `-m<mode>   If a directory…, set the mode as an octal` then `--mode=<mode>  permission string.`;
      // binutils pushes the long line in: `  -n <number>   Locate … at least <number>` / `    --bytes=<number>   displayable characters.`
      previous.option.longs.push(...head.longs);
      previous.option.aliases.push(...head.aliases);
      if (head.rest.length > 0) previous.description.push(head.rest);
      return true;
    }
    if (previous?.kind === 'option' && previous.option !== null && previous.indent === indent && sameValuesSpelledLong(previous.option, previous.description, head)) {
      // (round 17: lessc `-su=on|off  Allows mixed units … which have units` then `--strict-units=on|off  that
      // cannot be represented.`, `-sm=on|off  Legacy …` then a bare `--strict-math=on|off`: one option)
      const single = previous.option.longs[0];
      if (single !== undefined && single.dashes === '-') previous.option.shorts.push(single.name);
      previous.option.longs = [...head.longs];
      if (head.rest.length > 0) previous.description.push(head.rest);
      return true;
    }
    if (previous?.kind === 'option' && previous.option !== null && previous.indent === indent && previous.description.length === 0 && shortSpellingOfValues(previous.option, head)) {
      // binutils strings `--unicode={default|show|invalid}` alone, then `-U {d|s|i}   Specify how…`
      previous.option.shorts.push(...head.shorts);
      previous.option.rest = head.rest;
      return true;
    }
    // Pod::Usage (piconv) `-C N | -c   check the validity of the input`: two options described together
    const alternative = /^(-[A-Za-z0-9?](?: [A-Za-z<][^\s|]{0,30})?) \| (-[A-Za-z0-9?](?: [A-Za-z<][^\s|]{0,30})?)(?=\s{2,}|$)([\s\S]*)$/.exec(trimmed);
    const first = alternative === null ? null : parseOptionHead(`${alternative[1] ?? ''}${alternative[3] ?? ''}`);
    const second = alternative === null ? null : parseOptionHead(`${alternative[2] ?? ''}${alternative[3] ?? ''}`);
    const restOffset = head.rest.length > 0 ? line.lastIndexOf(head.rest.slice(0, 40)) : -1;
    this.current = { kind: 'option', indent, descriptionColumn: restOffset > indent ? restOffset : null, head: trimmed, option: first ?? head, description: [], block: this.block, afterUsage: this.result.seenUsage };
    if (this.valueSection) this.current.valueSection = true;
    this.beforeBlank = null;
    this.result.entries.push(this.current);
    // the second shares the description lines read from here on
    if (second !== null) this.result.entries.push({ ...this.current, head: `${alternative?.[2] ?? ''}${alternative?.[3] ?? ''}`, option: second });
    return true;
  }

  /**
   * bsdtar `-c Create  -r Add/Replace  -t List  -u Update  -x Extract`: three or more one-letter flags
   * on one line, each set off from its one- or two-word description by a single space and from the
   * next flag by two or more, are an entry each.
   */
  private flagRow(trimmed: string, indent: number): boolean {
    if (!FLAG_ROW.test(trimmed)) return false;
    const items = trimmed.split(/\s{2,}/);
    const heads = items.map((item) => parseOptionHead(item.replace(' ', '  ')));
    if (heads.some((head) => head === null || head.shorts.length !== 1 || head.longs.length > 0 || head.valueName !== null || head.choices !== null)) return false;
    this.closeParagraph();
    items.forEach((item, index) => {
      const option = heads[index] ?? null;
      this.current = { kind: 'option', indent, descriptionColumn: null, head: item, option, description: [], block: this.block, afterUsage: this.result.seenUsage };
      this.result.entries.push(this.current);
    });
    this.current = null;
    this.beforeBlank = null;
    return true;
  }

  /** GNU `      --group-directories-first` over a deeper `group directories before files`: the next line describes this one. */
  private describedBelow(indent: number): boolean {
    const next = this.lines[this.lineIndex + 1] ?? '';
    return next.trim().length > 0 && indentOf(next) > indent;
  }

  /** postcss (yargs epilog) `If neither -o, --dir, or` / `--replace is passed, it writes to stdout.`: a wrapped sentence. */
  private continuesProseSentence(indent: number): boolean {
    const lines = this.paragraph?.lines ?? [];
    const last = lines[lines.length - 1];
    return last !== undefined && this.paragraph?.indents[lines.length - 1] === indent && UNFINISHED_SENTENCE.test(last);
  }

  /**
   * lzop prints its short options in two columns: `-c     write on standard output          -oFILE
   * write output to 'FILE'`. A line whose description runs into a wide gap and a second short
   * spelling with its own gap and text holds two entries.
   */
  private twoColumnEntries(line: string, trimmed: string, indent: number, proseIndent: number | null): boolean {
    const columns = TWO_COLUMNS.exec(trimmed) ?? this.atKnownRightColumn(line, trimmed, indent);
    const right = columns === null ? null : parseOptionHead(columns[2] ?? '');
    if (columns === null || right === null || right.rest.length === 0 || (right.shorts.length === 0 && right.longs.length === 0)) return false;
    const left = columns[1] ?? '';
    if (!this.optionEntry(`${' '.repeat(indent)}${left}`, left, indent, proseIndent)) return false;
    const rightIndent = indent + trimmed.length - (columns[2] ?? '').length;
    this.rightColumn = { indent, column: rightIndent };
    this.current = { kind: 'option', indent: rightIndent, descriptionColumn: null, head: columns[2] ?? '', option: right, description: [], block: this.block, afterUsage: this.result.seenUsage };
    this.result.entries.push(this.current);
    return true;
  }

  /**
   * zip `-f   freshen: only changed files  -u   update: …`, `-F   fix zipfile (-FF try harder) -D   do
   * not …`: once a line with a wide gap showed where the right column starts, a short spelling and
   * its gap at that column open a right entry after any gap, even one space.
   */
  private atKnownRightColumn(line: string, trimmed: string, indent: number): string[] | null {
    const known = this.rightColumn;
    if (known === null || known.indent !== indent || line.length <= known.column || line[known.column - 1] !== ' ') return null;
    const rightText = line.slice(known.column);
    const leftText = line.slice(indent, known.column).trimEnd();
    if (!/^-[A-Za-z0-9?#@]\S{0,10}\s{2,}\S/.test(rightText) || !/^-[A-Za-z0-9?#@]\S{0,10}\s{2,}\S/.test(leftText)) return null;
    return [trimmed, leftText, rightText.trimEnd()];
  }

  private namedEntry(trimmed: string, indent: number): boolean {
    if ((this.section !== 'positionals' && this.section !== 'commands') || indent < 1 || indent > 12) return false;
    // sade `  Available Commands` over `    build   Build once…`, then `  For more info, run any command…` at
    // the title's own indent: a line no deeper than the title is past its entries
    if (indent <= this.sectionIndent) return false;
    if (this.result.entries.length >= MAX_ENTRIES) return false;
    const gap = /\s{2,}/.exec(trimmed);
    // Pod::Usage (pg_format) `file.sql can be a file, multiple files or use - …` under `Arguments:`:
    // three or more words without a gap after the name are a sentence, not an entry
    if (this.section === 'positionals' && gap === null && trimmed.split(/\s+/).length >= 3 && !/^(?:[[<(]|[A-Z][A-Z0-9_]*(?:\s|$))/.test(trimmed)) return false;
    this.closeParagraph();
    const headText = gap ? trimmed.slice(0, gap.index) : trimmed;
    const rest = gap ? trimmed.slice(gap.index).trim() : '';
    // yargs wraps a long command column: `nyc merge <input-directory>   merge istanbul…` then
    // `[output-file]   output in a given folder` at the same indent: a bracketed placeholder starts no
    // command, it goes on with the previous one's head and description
    const previous = this.current;
    if (this.section === 'commands' && previous?.kind === 'command' && previous.indent === indent && /^[[<][^\s\]>]+[\]>](?:\.{3})?$/.test(headText)) {
      previous.head = `${previous.head} ${headText}`;
      if (rest.length > 0) previous.description.push(rest);
      return true;
    }
    this.current = {
      kind: this.section === 'positionals' ? 'positional' : 'command',
      indent,
      descriptionColumn: gap ? indent + (gap.index + gap[0].length) : null,
      head: headText,
      option: null,
      description: rest.length > 0 ? [rest] : [],
      block: this.block,
    };
    this.beforeBlank = null;
    this.result.entries.push(this.current);
    return true;
  }

  private prose(trimmed: string, indent: number, index: number, wasProseIndent: number | null): void {
    // Not understood: a flag-like line that is no option, or an indented line right inside an
    // options list (after an entry, no blank line between) that is not that entry's description.
    // an indented sub-title (`     Options that take arguments:`, `     Boolean options:`)
    if (/:$/.test(trimmed) && trimmed.length <= 60) this.valueSection = VALUE_SECTION.test(trimmed.slice(0, -1));
    const followsEntry = this.current !== null && this.current.kind === 'option';
    // inotifywait `\t@<file>   \tExclude …` between option entries at their indent: a stray item of
    // the options list, not a definition list making the flag lines after it prose
    const amidEntries = followsEntry && this.current?.indent === indent;
    // potrace `File selection:` then ` <filename>   - an input file` over ` -o, --output <filename>`: an
    // argument's placeholder in angle brackets described among the options is an item of that list too
    const placeholderItem = /^<[\w.-]{1,30}>(?:\.{3})?\s{2,}\S/.test(trimmed);
    const separator = /^--(\s|$)/.test(trimmed); // `--  terminates argument processing`
    if (!separator && ((OPTION_START.test(trimmed) && this.section !== 'commands') || (followsEntry && indent > 0))) this.noteUnparsed(index, trimmed);
    this.current = null;
    this.beforeBlank = null;
    this.block += 1;
    // only a definition-list line (`N-M   from N'th…`) makes a flag-like line at its indent prose; a
    // flag-like one (`-M   from first…`, argparse's `-   read from standard input`) only continues such a list
    const definition = /^\S{1,16}\s{2,}\S/.test(trimmed) && (!trimmed.startsWith('-') || wasProseIndent === indent) && !amidEntries && !placeholderItem;
    this.proseIndent = definition ? indent : null;
    if (this.paragraph === null) this.paragraph = { lines: [], afterUsage: this.result.seenUsage, afterEntries: this.result.entries.length > 0, indents: [] };
    if (this.paragraph.lines.length < MAX_DESCRIPTION_LINES) {
      this.paragraph.lines.push(trimmed);
      this.paragraph.indents.push(indent);
    }
  }

  private noteUnparsed(index: number, text: string): void {
    if (this.result.unparsed.length < MAX_UNPARSED) this.result.unparsed.push({ line: index + 1, text: text.slice(0, 200) });
  }
}

/** A value name without its brackets and `=`: `<mode>`, `=<mode>` and `MODE` compare alike. */
function bareValueName(name: string | null): string {
  return (name ?? '').replace(/[<>[\]{}=]/g, '').toLowerCase();
}

/**
 * True when `next` is the long spelling of the option `previous` began on the line before: a
 * short-only head, then a long-only head with the same placeholder, while the first line's
 * sentence runs on (no period) into the second line's description (hand-written help).
 */
/**
 * aria2 `-j, --max-concurrent-downloads=N Set maximum…` over `                              every static…`:
 * a head too long for its column pushes the description one space past it; the first description
 * line under it shows the real column (lines there starting with `--split` are prose, and a
 * paragraph after a blank line at that column still belongs to the option).
 */
function overflowsIntoDescription(entry: Entry, indent: number): boolean {
  const column = entry.descriptionColumn;
  if (entry.kind !== 'option' || entry.description.length > 0 || column === null || indent >= column || indent <= entry.indent + 2) return false;
  return /\S $/.test(entry.head.slice(0, column - entry.indent));
}

function continuesSpelling(previous: OptionHead, description: readonly string[], next: OptionHead): boolean {
  // (cwebp `-m <int> …` over `-segments <int> …`: a one-dash long spelling is another option of a one-dash help)
  if (description.length > 0 || previous.longs.length > 0 || previous.shorts.length !== 1 || next.shorts.length > 0 || next.longs.length !== 1 || next.longs[0]?.dashes !== '--') return false;
  if (previous.valueName === null || next.valueName === null || bareValueName(previous.valueName) !== bareValueName(next.valueName)) return false;
  return previous.rest.length > 0 && !/[.!?:)]$/.test(previous.rest) && /^[a-z]/.test(next.rest);
}

/**
 * cyclopts `SERVER-SPEC --server-spec  Python file, …`: a parameter given by position or by its
 * long spelling, its name in capitals first: the option line `--server-spec SERVER-SPEC  Python file, …`
 * (the name naming its value); null for any other line.
 */
function positionalOrKeyword(trimmed: string): string | null {
  const match = /^([A-Z][A-Z0-9_-]{0,40}) --([a-z][a-z0-9_-]{0,40})(\s{2,}\S[\s\S]*|)$/.exec(trimmed);
  if (match === null) return null;
  const [, name = '', long = '', rest = ''] = match;
  return name.toLowerCase().replace(/_/g, '-') === long.replace(/_/g, '-') ? `--${long} ${name}${rest}` : null;
}

/**
 * True when `next` is a `--long` spelling of the single-dash option on the line before (a letter, or
 * lessc's several letters `-su`), written with the very same values (`=on|off`), and either bare or
 * going on with the sentence the line before left open.
 */
function sameValuesSpelledLong(previous: OptionHead, description: readonly string[], next: OptionHead): boolean {
  if (description.length > 0 || next.shorts.length > 0 || next.longs.length !== 1 || next.longs[0]?.dashes !== '--') return false;
  const single = (previous.shorts.length === 1 && previous.longs.length === 0) || (previous.shorts.length === 0 && previous.longs.length === 1 && previous.longs[0]?.dashes === '-');
  if (!single) return false;
  const sameChoices = previous.choices !== null && next.choices !== null && previous.choices.join('|') === next.choices.join('|');
  const sameName = previous.valueName !== null && next.valueName !== null && previous.valueName === next.valueName && previous.choices === null && next.choices === null;
  if (!sameChoices && !sameName) return false;
  return next.rest.length === 0 || (/^[a-z]/.test(next.rest) && previous.rest.length > 0 && !/[.!?:)]$/.test(previous.rest));
}

/**
 * True when `next` is the short spelling of the long-only option on the line before, which has no
 * description: the short one's values are the long one's, each cut to one of its letters (binutils
 * `--unicode={default|show|invalid|hex}` then `-U {d|s|i|x}`). The long spelling's values stay.
 */
function shortSpellingOfValues(previous: OptionHead, next: OptionHead): boolean {
  if (previous.shorts.length > 0 || previous.longs.length !== 1 || previous.rest.length > 0 || next.longs.length > 0 || next.shorts.length !== 1) return false;
  const long = previous.choices;
  const short = next.choices;
  return long !== null && short !== null && long.length >= 2 && long.length === short.length && new Set(short).size === short.length && long.every((value, index) => (short[index] ?? '').length === 1 && value.includes(short[index] ?? ''));
}

/** Adds the spellings of `extra` (a continuation line of the same option) to `head`. */
/** `--verbose:` then `-v:`: a letter names the option its short spelling when it has none yet; otherwise one more spelling. */
function mergeColonClosedSpelling(head: OptionHead, extra: OptionHead): void {
  const [letter] = extra.shorts;
  if (head.shorts.length === 0 && extra.longs.length === 0 && extra.shorts.length === 1 && letter !== undefined) {
    head.shorts.push(letter);
    return;
  }
  mergeSpellings(head, extra);
}

function mergeSpellings(head: OptionHead, extra: OptionHead): void {
  // qrencode `-t {PNG,EPS,…},` then `--type={PNG,EPS,…}`: a head of short spellings only takes the first long one as its name
  const [name, ...more] = head.longs.length === 0 ? extra.longs : [];
  if (name !== undefined) head.longs.push(name);
  for (const long of name !== undefined ? more : extra.longs) head.aliases.push(`${long.dashes}${long.name}`);
  for (const short of extra.shorts) head.aliases.push(`-${short}`);
  head.aliases.push(...extra.aliases);
  if (head.valueName === null && head.choices === null) {
    head.valueName = extra.valueName;
    head.choices = extra.choices;
    head.valueOptional = extra.valueOptional;
  }
  head.repeatable = head.repeatable || extra.repeatable;
  head.rest = extra.rest;
}

/**
 * Sorts the (already cleaned, tab-expanded) lines; `skip(index)` marks lines another pass consumed,
 * `usageHeader` a skipped line that titles the usage forms indented under it.
 */
export function scanHelpLines(lines: readonly string[], skip: (index: number) => boolean, usageHeader: number | null = null): HelpScan {
  return new Scanner(lines, skip, usageHeader).run();
}
