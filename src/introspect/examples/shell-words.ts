/**
 * An example command line from a help text → its words, the way a POSIX shell would split it, or
 * null when the shell would do more than split and unquote (a pipe, a redirection, `;`, `&`, a
 * variable or command substitution, a glob, `~`, braces, a comment mark inside a word): then the
 * argv the program would see cannot be told from the text, and the example is dropped, not guessed.
 *
 * One pass over the text, so linear in its length; the caller caps the length and the word count.
 */

/** Characters that make the shell do something other than pass the text on, outside quotes. */
const UNQUOTED_SPECIAL = new Set(['|', '&', ';', '<', '>', '(', ')', '`', '$', '*', '?', '[', ']', '{', '}', '!']);

/** The words of `text`, or null when it is not a plain command (see the header). `maxWords` caps the count. */
export function shellWords(text: string, maxWords = 128): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let index = 0;
  const end = (): boolean => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
    return words.length <= maxWords;
  };
  while (index < text.length) {
    const char = text[index] ?? '';
    if (char === ' ' || char === '\t') {
      if (!end()) return null;
      index += 1;
      continue;
    }
    if (char === "'") {
      const close = text.indexOf("'", index + 1);
      if (close === -1) return null;
      word += text.slice(index + 1, close);
      inWord = true;
      index = close + 1;
      continue;
    }
    if (char === '"') {
      index += 1;
      let closed = false;
      while (index < text.length) {
        const inner = text[index] ?? '';
        if (inner === '"') {
          closed = true;
          index += 1;
          break;
        }
        // substitutions still happen inside double quotes
        if (inner === '$' || inner === '`') return null;
        if (inner === '\\' && index + 1 < text.length && '"\\$`'.includes(text[index + 1] ?? '')) {
          word += text[index + 1];
          index += 2;
          continue;
        }
        word += inner;
        index += 1;
      }
      if (!closed) return null;
      inWord = true;
      continue;
    }
    if (char === '\\') {
      if (index + 1 >= text.length) return null;
      word += text[index + 1];
      inWord = true;
      index += 2;
      continue;
    }
    if (UNQUOTED_SPECIAL.has(char)) return null;
    // `#` starts a comment only at a word's start (the caller strips trailing comments first); `~` expands there
    if (!inWord && (char === '#' || char === '~')) return null;
    word += char;
    inWord = true;
    index += 1;
  }
  return end() ? words : null;
}
