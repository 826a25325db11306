/**
 * Reads a POSIX `sh` script (a `shell` command, or text written to a process's stdin) into its simple
 * commands, for approval rules. Not an interpreter: it finds where each simple command starts and
 * ends, and which of its words are plain text after quote removal.
 *
 * Simple commands are split on `;`, `&`, `&&`, `|`, `||`, newlines, `;;` and the parentheses of
 * subshells, and are also read inside command substitutions (`$(...)`, backticks, `<(...)`), `${...}`
 * and `$((...))` expansions, here-documents whose delimiter is unquoted, function bodies, case items,
 * and `if`/`while`/`for` bodies (leading reserved words such as `then` or `!` are dropped). `for` and
 * `select` heads are data, not commands. Quotes (`'...'`, `"..."`, backslashes, line continuations)
 * are removed from words; a word holding an expansion or an unquoted glob or brace pattern is marked
 * not literal (its value is only known when it runs).
 *
 * What it cannot read (unbalanced quotes or parentheses, nesting deeper than MAX_NESTING, bash's
 * `function` and `coproc`) becomes an `unreadable` command holding the rest of that line, and reading
 * resumes on the next line (at most MAX_RESUMES times; after that the rest of the script is one
 * unreadable command). Time and memory are linear in the script's length (times MAX_NESTING for text
 * inside nested substitutions, times MAX_RESUMES after errors); recursion is bounded by MAX_NESTING.
 */

/** A word of a simple command. */
export interface ShellWord {
  /** The word after quote removal; expansions are left as written (e.g. `$HOME`). */
  text: string;
  /** False when the word holds an expansion, command substitution or unquoted glob/brace pattern. */
  literal: boolean;
  /** True when any part of it was quoted or escaped (so it is never a reserved word). */
  quoted: boolean;
  /** An unquoted `NAME=` prefix: a variable assignment when it comes before the command word. */
  assignment: boolean;
  /** The word as written. */
  source: string;
}

export interface ShellRedirect {
  /** The operator with its file descriptor number, e.g. `>`, `2>>`, `<&`, `<<`. */
  operator: string;
  target: ShellWord;
}

export interface SimpleCommand {
  /** The command as written, its words and redirections joined by one space (leading reserved words dropped). */
  text: string;
  /** Its words (assignments included), redirections left out. */
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Why the parser could not read this part; `text` is then the unread text with whitespace collapsed. */
  unreadable?: string;
}

export interface ParsedScript {
  /** The script trimmed, each run of whitespace between tokens collapsed to one space (one newline if it held one). */
  normalized: string;
  /** Every simple command, nested ones included. */
  commands: SimpleCommand[];
  /**
   * The end of the script that may continue on a later write (text after the last newline at which
   * nothing was open: no quote, substitution, case, here-document or line continuation); '' when none.
   */
  incompleteTail: string;
}

/** Substitutions and subshells nested deeper than this are not read (the rest of the line is unreadable). */
export const MAX_NESTING = 16;
/** Syntax errors the parser recovers from by resuming on the next line; after that the rest is unreadable. */
export const MAX_RESUMES = 32;

/** Words dropped at the start of a simple command: they introduce or close a compound command. */
const LEADING_RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'esac', 'time']);
/** Heads whose words are data, not a command. */
const CLAUSE_HEADS = new Set(['for', 'select', 'in']);
/** Bash syntax dash does not have, too rich to follow here. */
const UNREADABLE_HEADS = new Set(['function', 'coproc']);

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const SPECIAL_PARAMETER = /[@*#?\-$!0-9]/;

class Unreadable extends Error {}

interface Frame {
  /** Open `case ... in` constructs of this list. */
  cases: number;
  /** Reading a case pattern (up to its `)`). */
  pattern: boolean;
  /** Words read of the current pattern. */
  patternWords: number;
}

const newFrame = (): Frame => ({ cases: 0, pattern: false, patternWords: 0 });

/** A word, or a redirection (operator and target as one token). */
interface Token {
  source: string;
  word?: ShellWord;
  redirect?: ShellRedirect;
}

interface PendingHeredoc {
  delimiter: string;
  quoted: boolean;
  stripTabs: boolean;
}

/** Collapses every run of whitespace to one space, for text the parser could not read. */
function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

class Parser {
  pos = 0;
  private nesting: number;
  private tokens: Token[] = [];
  /** Words of the current command after its leading reserved words, and the first of them. */
  private commandWords = 0;
  private commandHead: ShellWord | undefined;
  /** Inside a word (a substitution's tokens are part of the word's text, not emitted on their own). */
  private wordDepth = 0;
  /** Source offset after the last top-level operator: where the current top-level command began. */
  private topBoundary = 0;
  /** How much normalized text had been built at topBoundary. */
  private boundaryPieces = 0;
  private heredocs: PendingHeredoc[] = [];
  /** Only the top-level parser builds the normalized text. */
  private readonly pieces: string[] | undefined;
  private pendingSpace = '';
  /** Source offset after the last clean top-level newline. */
  cleanOffset = 0;

  constructor(
    private readonly src: string,
    private readonly out: SimpleCommand[],
    nesting: number,
    normalize: boolean,
  ) {
    this.nesting = nesting;
    this.pieces = normalize ? [] : undefined;
  }

  get normalized(): string {
    return (this.pieces ?? []).join('');
  }

  /** Reads the whole script, recovering from errors line by line. */
  parseScript(): void {
    let resumes = 0;
    while (this.pos < this.src.length) {
      try {
        this.parseList(null, newFrame());
        return;
      } catch (error) {
        if (!(error instanceof Unreadable)) throw error;
        resumes += 1;
        // Unread: from where the failing top-level command began to the end of that line; resume after it.
        const from = this.topBoundary;
        const newline = this.src.indexOf('\n', from);
        const to = resumes > MAX_RESUMES || newline === -1 ? this.src.length : newline + 1;
        const text = collapse(this.src.slice(from, to));
        this.out.push({ text, words: [], redirects: [], unreadable: error.message });
        this.wordDepth = 0;
        if (this.pieces) this.pieces.length = this.boundaryPieces;
        this.emit(text);
        this.pendingSpace = '\n';
        this.resetCommand();
        this.heredocs = [];
        this.nesting = 0;
        this.pos = to;
        this.topBoundary = to;
      }
    }
  }

  // ---- normalized text ----

  private emit(text: string): void {
    if (!this.pieces || text.length === 0 || this.wordDepth > 0) return;
    if (this.pieces.length > 0 && this.pendingSpace) this.pieces.push(this.pendingSpace);
    this.pieces.push(text);
    this.pendingSpace = '';
  }

  private space(newline: boolean): void {
    if (this.wordDepth > 0) return;
    this.pendingSpace = newline || this.pendingSpace === '\n' ? '\n' : ' ';
  }

  // ---- lists and commands ----

  private enter(): void {
    this.nesting += 1;
    if (this.nesting > MAX_NESTING) throw new Unreadable(`nested more than ${MAX_NESTING} levels deep`);
  }

  /**
   * Reads commands until `closer` (`)`) or the end of the script. A nested list (a substitution in the
   * middle of a word) sets the enclosing command aside and takes it up again after its `)`.
   */
  private parseList(closer: ')' | null, frame: Frame): void {
    const outer = { tokens: this.tokens, commandWords: this.commandWords, commandHead: this.commandHead };
    this.tokens = [];
    this.commandWords = 0;
    this.commandHead = undefined;
    this.readList(closer, frame);
    this.tokens = outer.tokens;
    this.commandWords = outer.commandWords;
    this.commandHead = outer.commandHead;
  }

  private readList(closer: ')' | null, frame: Frame): void {
    const src = this.src;
    for (;;) {
      this.skipBlanks();
      if (this.pos >= src.length) {
        if (closer !== null) throw new Unreadable('a `(` or `$(` is not closed');
        this.finishCommand();
        return;
      }
      const char = src[this.pos] as string;
      const next = src[this.pos + 1];
      if (char === '#') {
        const end = src.indexOf('\n', this.pos);
        const stop = end === -1 ? src.length : end;
        this.emit(src.slice(this.pos, stop));
        this.pos = stop;
        continue;
      }
      if (char === '\n') {
        this.finishCommand();
        this.pos += 1;
        this.space(true);
        this.readHeredocBodies();
        this.boundary(closer);
        if (closer === null && frame.cases === 0 && this.heredocs.length === 0) this.cleanOffset = this.pos;
        continue;
      }
      if (char === ';') {
        this.finishCommand();
        let operator = ';';
        if (next === ';') operator = src[this.pos + 2] === '&' ? ';;&' : ';;';
        else if (next === '&') operator = ';&';
        this.pos += operator.length;
        if (operator !== ';' && frame.cases > 0) this.startPattern(frame);
        this.emitOperator(operator, closer);
        continue;
      }
      if (char === '&' || char === '|') {
        this.finishCommand();
        const operator = next === char || (char === '|' && next === '&') ? char + next : char;
        this.pos += operator.length;
        this.emitOperator(operator, closer);
        continue;
      }
      if (char === '(') {
        if (frame.pattern) {
          this.pos += 1;
          continue;
        }
        if (this.isFunctionDefinition()) continue;
        if (this.commandWords > 0 || this.tokens.some((token) => token.redirect)) throw new Unreadable('a `(` in the middle of a command');
        this.resetCommand();
        this.pos += 1;
        this.emit('(');
        this.enter();
        this.parseList(')', newFrame());
        this.nesting -= 1;
        this.emit(')');
        continue;
      }
      if (char === ')') {
        if (frame.pattern) {
          frame.pattern = false;
          this.resetCommand();
          this.pos += 1;
          this.emit(')');
          continue;
        }
        if (closer === ')') {
          this.finishCommand();
          this.pos += 1;
          return;
        }
        throw new Unreadable('a `)` that closes nothing');
      }
      this.readToken(frame);
    }
  }

  private emitOperator(operator: string, closer: ')' | null): void {
    this.emit(operator);
    this.boundary(closer);
  }

  /** Marks where the next top-level command begins. */
  private boundary(closer: ')' | null): void {
    if (closer === null && this.nesting === 0 && this.wordDepth === 0) {
      this.topBoundary = this.pos;
      this.boundaryPieces = this.pieces?.length ?? 0;
    }
  }

  private resetCommand(): void {
    if (this.tokens.length > 0) this.tokens = [];
    this.commandWords = 0;
    this.commandHead = undefined;
  }

  private startPattern(frame: Frame): void {
    frame.pattern = true;
    frame.patternWords = 0;
    this.resetCommand();
  }

  /** `name()`: a function definition; its body is read as the commands that follow. */
  private isFunctionDefinition(): boolean {
    const [only] = this.tokens;
    if (this.tokens.length !== 1 || !only?.word || only.word.quoted || !only.word.literal) return false;
    let index = this.pos + 1;
    while (this.src[index] === ' ' || this.src[index] === '\t') index += 1;
    if (this.src[index] !== ')') return false;
    this.pos = index + 1;
    this.emit('()');
    this.resetCommand();
    return true;
  }

  /** A word, or a redirection with its target (and an IO number before it). */
  private readToken(frame: Frame): void {
    const src = this.src;
    const char = src[this.pos] as string;
    if ((char === '<' || char === '>') && src[this.pos + 1] === '(') {
      // Process substitution (bash): its commands run; the word is a file name nobody knows yet.
      const start = this.pos;
      this.pos += 2;
      this.enter();
      this.wordDepth += 1;
      this.parseList(')', newFrame());
      this.wordDepth -= 1;
      this.nesting -= 1;
      const source = src.slice(start, this.pos);
      this.addWord({ text: source, literal: false, quoted: false, assignment: false, source }, frame);
      return;
    }
    if (char === '<' || char === '>') {
      this.readRedirect('');
      return;
    }
    const word = this.readWord();
    if (word === undefined) throw new Unreadable(`unexpected \`${char}\``);
    if (/^[0-9]+$/.test(word.source) && (src[this.pos] === '<' || src[this.pos] === '>')) {
      this.readRedirect(word.source);
      return;
    }
    this.addWord(word, frame);
  }

  private readRedirect(ioNumber: string): void {
    const src = this.src;
    const rest = src.slice(this.pos, this.pos + 3);
    const operator = ['<<<', '<<-', '<<', '<>', '<&', '>>', '>|', '>&', '<', '>'].find((candidate) => rest.startsWith(candidate)) as string;
    this.pos += operator.length;
    this.skipBlanks();
    const target = this.readWord();
    if (target === undefined) throw new Unreadable(`\`${operator}\` without a target`);
    if (operator === '<<' || operator === '<<-') {
      this.heredocs.push({ delimiter: target.text, quoted: target.quoted, stripTabs: operator === '<<-' });
    }
    const full = ioNumber + operator;
    const source = `${full}${target.source}`;
    this.tokens.push({ source, redirect: { operator: full, target } });
    this.emit(source);
  }

  private addWord(word: ShellWord, frame: Frame): void {
    this.emit(word.source);
    const plain = !word.quoted && word.literal;
    if (frame.pattern) {
      // Pattern words are data; `esac` in first place ends the case.
      if (plain && word.text === 'esac' && frame.patternWords === 0) {
        frame.cases -= 1;
        frame.pattern = false;
      }
      frame.patternWords += 1;
      return;
    }
    if (plain && word.text === 'esac' && frame.cases > 0 && this.commandWords === 0) {
      frame.cases -= 1;
      this.resetCommand();
      return;
    }
    this.tokens.push({ source: word.source, word });
    if (this.commandWords === 0 && isLeadingReserved(word)) return;
    this.commandWords += 1;
    if (this.commandWords === 1) this.commandHead = word;
    const head = this.commandHead;
    if (plain && word.text === 'in' && this.commandWords === 3 && head && !head.quoted && head.literal && head.text === 'case') {
      frame.cases += 1;
      this.startPattern(frame);
    }
  }

  private finishCommand(): void {
    const tokens = this.tokens;
    if (tokens.length === 0) return;
    this.resetCommand();
    let first = 0;
    while (first < tokens.length) {
      const token = tokens[first] as Token;
      if (!token.word || !isLeadingReserved(token.word)) break;
      first += 1;
    }
    const kept = tokens.slice(first);
    if (kept.length === 0) return;
    const words: ShellWord[] = [];
    const redirects: ShellRedirect[] = [];
    for (const token of kept) {
      if (token.redirect) redirects.push(token.redirect);
      else if (token.word) words.push(token.word);
    }
    const text = kept.map((token) => token.source).join(' ');
    const head = words.find((word) => !word.assignment);
    if (head && !head.quoted && head.literal) {
      if (CLAUSE_HEADS.has(head.text)) return;
      if (UNREADABLE_HEADS.has(head.text)) {
        this.out.push({ text, words, redirects, unreadable: `bash's \`${head.text}\`` });
        return;
      }
    }
    this.out.push({ text, words, redirects });
  }

  // ---- here-documents ----

  private readHeredocBodies(): void {
    if (this.heredocs.length === 0) return;
    const src = this.src;
    const pending = this.heredocs;
    this.heredocs = [];
    for (const heredoc of pending) {
      const bodyStart = this.pos;
      let bodyEnd = src.length;
      let after = src.length;
      while (this.pos < src.length) {
        const newline = src.indexOf('\n', this.pos);
        const lineEnd = newline === -1 ? src.length : newline;
        let line = src.slice(this.pos, lineEnd);
        if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
        if (line === heredoc.delimiter) {
          bodyEnd = this.pos;
          after = newline === -1 ? src.length : newline + 1;
          break;
        }
        this.pos = newline === -1 ? src.length : newline + 1;
      }
      if (after === src.length && bodyEnd === src.length) {
        // No delimiter line yet: the document may go on in a later write.
        this.heredocs.push(heredoc);
      }
      this.pos = after;
      const body = src.slice(bodyStart, bodyEnd);
      this.emit(src.slice(bodyStart, after).replace(/\n$/, ''));
      this.space(true);
      if (!heredoc.quoted && /[$`]/.test(body)) {
        if (this.nesting + 1 > MAX_NESTING) throw new Unreadable(`nested more than ${MAX_NESTING} levels deep`);
        new Parser(body, this.out, this.nesting + 1, false).scanDoubleQuoted(null);
      }
    }
  }

  // ---- words ----

  private skipBlanks(): void {
    const src = this.src;
    for (;;) {
      const char = src[this.pos];
      if (char === ' ' || char === '\t') this.pos += 1;
      else if (char === '\\' && src[this.pos + 1] === '\n') this.pos += 2;
      else break;
      this.space(false);
    }
  }

  /** A word at the current position, or undefined at an operator. */
  private readWord(): ShellWord | undefined {
    this.wordDepth += 1;
    try {
      return this.scanWord();
    } finally {
      this.wordDepth -= 1;
    }
  }

  private scanWord(): ShellWord | undefined {
    const src = this.src;
    const start = this.pos;
    let text = '';
    let literal = true;
    let quoted = false;
    let openBracket = false;
    let openBrace = false;
    let braceList = false;
    while (this.pos < src.length) {
      const char = src[this.pos] as string;
      if (char === ' ' || char === '\t' || char === '\n' || char === ';' || char === '&' || char === '|' || char === '(' || char === ')' || char === '<' || char === '>') break;
      if (char === '\\') {
        if (src[this.pos + 1] === '\n') {
          this.pos += 2;
          continue;
        }
        if (this.pos + 1 < src.length) {
          text += src[this.pos + 1];
          quoted = true;
          this.pos += 2;
        } else {
          text += '\\';
          this.pos += 1;
        }
        continue;
      }
      if (char === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end === -1) throw new Unreadable('a `\'` is not closed');
        text += src.slice(this.pos + 1, end);
        quoted = true;
        this.pos = end + 1;
        continue;
      }
      if (char === '"') {
        this.pos += 1;
        const inner = this.scanDoubleQuoted('"');
        text += inner.text;
        literal &&= inner.literal;
        quoted = true;
        continue;
      }
      if (char === '`') {
        text += this.scanBackticks(false);
        literal = false;
        continue;
      }
      if (char === '$') {
        const expansion = this.scanDollar(false);
        text += expansion.text;
        literal &&= expansion.literal;
        continue;
      }
      if (char === '*' || char === '?') literal = false;
      else if (char === '[') openBracket = true;
      else if (char === ']' && openBracket) literal = false;
      else if (char === '{') openBrace = true;
      else if (openBrace && (char === ',' || (char === '.' && src[this.pos + 1] === '.'))) braceList = true;
      else if (char === '}' && braceList) literal = false;
      text += char;
      this.pos += 1;
    }
    if (this.pos === start) return undefined;
    const source = src.slice(start, this.pos);
    return { text, literal, quoted, assignment: ASSIGNMENT.test(source), source };
  }

  /**
   * The inside of double quotes from the current position up to `terminator` (consumed), or to the end
   * for a here-document body (`null`). Expansions in it are read; the text is returned with `\` removed
   * where sh removes it.
   */
  scanDoubleQuoted(terminator: '"' | null): { text: string; literal: boolean } {
    const src = this.src;
    let text = '';
    let literal = true;
    while (this.pos < src.length) {
      const char = src[this.pos] as string;
      if (char === terminator) {
        this.pos += 1;
        return { text, literal };
      }
      if (char === '\\') {
        const next = src[this.pos + 1];
        if (next === '\n') {
          this.pos += 2;
          continue;
        }
        if (next === '$' || next === '`' || next === '\\' || (next === '"' && terminator === '"')) {
          text += next;
          this.pos += 2;
          continue;
        }
        text += char;
        this.pos += 1;
        continue;
      }
      if (char === '`') {
        text += this.scanBackticks(terminator === '"');
        literal = false;
        continue;
      }
      if (char === '$') {
        const expansion = this.scanDollar(true);
        text += expansion.text;
        literal &&= expansion.literal;
        continue;
      }
      text += char;
      this.pos += 1;
    }
    if (terminator !== null) throw new Unreadable('a `"` is not closed');
    return { text, literal };
  }

  /** A backquoted command substitution, read as a script of its own; returns its source. */
  private scanBackticks(inDoubleQuotes: boolean): string {
    const src = this.src;
    const start = this.pos;
    this.pos += 1;
    let inner = '';
    for (;;) {
      if (this.pos >= src.length) throw new Unreadable('a backquote is not closed');
      const char = src[this.pos] as string;
      if (char === '`') break;
      if (char === '\\' && this.pos + 1 < src.length) {
        const next = src[this.pos + 1] as string;
        inner += next === '`' || next === '\\' || next === '$' || (inDoubleQuotes && next === '"') ? next : char + next;
        this.pos += 2;
        continue;
      }
      inner += char;
      this.pos += 1;
    }
    this.pos += 1;
    this.readNested(inner);
    return src.slice(start, this.pos);
  }

  private readNested(script: string): void {
    const inner = new Parser(script, this.out, this.nesting + 1, false);
    if (inner.nesting > MAX_NESTING) throw new Unreadable(`nested more than ${MAX_NESTING} levels deep`);
    inner.parseList(null, newFrame());
  }

  /** `$...` at the current position: a parameter, `${...}`, `$(...)`, `$((...))`, or a literal `$`. */
  private scanDollar(inDoubleQuotes: boolean): { text: string; literal: boolean } {
    const src = this.src;
    const start = this.pos;
    const next = src[this.pos + 1] ?? '';
    if (next === '(') {
      if (src[this.pos + 2] === '(' && this.tryArithmetic()) return { text: src.slice(start, this.pos), literal: false };
      this.pos = start + 2;
      this.enter();
      this.parseList(')', newFrame());
      this.nesting -= 1;
      return { text: src.slice(start, this.pos), literal: false };
    }
    if (next === '{') {
      this.pos += 2;
      this.enter();
      this.scanBraceParameter();
      this.nesting -= 1;
      return { text: src.slice(start, this.pos), literal: false };
    }
    if (NAME_START.test(next)) {
      this.pos += 2;
      while (this.pos < src.length && NAME_CHAR.test(src[this.pos] as string)) this.pos += 1;
      return { text: src.slice(start, this.pos), literal: false };
    }
    if (next !== '' && SPECIAL_PARAMETER.test(next)) {
      this.pos += 2;
      return { text: src.slice(start, this.pos), literal: false };
    }
    if (!inDoubleQuotes && (next === "'" || next === '"')) {
      // bash's $'...' and $"...": the quote is read by the caller; the value differs between shells.
      this.pos += 1;
      return { text: '$', literal: false };
    }
    this.pos += 1;
    return { text: '$', literal: true };
  }

  /** `$((...))` from its `$`: true when it is arithmetic (read up to `))`), false to read it as `$( (...) )`. */
  private tryArithmetic(): boolean {
    const src = this.src;
    const start = this.pos;
    this.pos += 3;
    let depth = 0;
    this.enter();
    try {
      while (this.pos < src.length) {
        const char = src[this.pos] as string;
        if (char === '(') depth += 1;
        else if (char === ')') {
          if (depth > 0) depth -= 1;
          else if (src[this.pos + 1] === ')') {
            this.pos += 2;
            return true;
          } else {
            this.pos = start;
            return false;
          }
        } else if (char === '$') {
          this.scanDollar(true);
          continue;
        } else if (char === '`') {
          this.scanBackticks(false);
          continue;
        } else if (char === "'" || char === '"' || char === '\\') {
          // Not arithmetic: read it as a command substitution instead.
          this.pos = start;
          return false;
        }
        this.pos += 1;
      }
      throw new Unreadable('a `$((` is not closed');
    } finally {
      this.nesting -= 1;
    }
  }

  /** The inside of `${...}` up to its `}` (consumed); substitutions in it are read. */
  private scanBraceParameter(): void {
    const src = this.src;
    while (this.pos < src.length) {
      const char = src[this.pos] as string;
      if (char === '}') {
        this.pos += 1;
        return;
      }
      if (char === '\\') this.pos += 2;
      else if (char === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end === -1) throw new Unreadable('a `\'` is not closed');
        this.pos = end + 1;
      } else if (char === '"') {
        this.pos += 1;
        this.scanDoubleQuoted('"');
      } else if (char === '`') this.scanBackticks(false);
      else if (char === '$') this.scanDollar(true);
      else this.pos += 1;
    }
    throw new Unreadable('a `${` is not closed');
  }
}

function isLeadingReserved(word: ShellWord): boolean {
  return !word.quoted && word.literal && LEADING_RESERVED.has(word.text);
}

/** Reads a script into its simple commands (see the module comment). */
export function parseShellScript(script: string): ParsedScript {
  const commands: SimpleCommand[] = [];
  const parser = new Parser(script, commands, 0, true);
  parser.parseScript();
  const normalized = parser.normalized.trim();
  return { normalized, commands, incompleteTail: script.slice(parser.cleanOffset) };
}
