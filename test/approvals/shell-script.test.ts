/** The sh reader behind shell approval rules: simple commands, words after quote removal, normalization, unfinished input. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandLine, mayRun, surelyRuns } from '../../src/approvals/shell-argv.ts';
import { MAX_NESTING, parseShellScript } from '../../src/approvals/shell-script.ts';

const texts = (script: string): string[] => parseShellScript(script).commands.map((command) => command.text);
const lines = (script: string): string[] => parseShellScript(script).commands.map((command) => (command.unreadable ? `!${command.text}` : commandLine(command)));

describe('simple commands', () => {
  it('splits on ; & && || | newlines and parentheses, trimming and collapsing whitespace', () => {
    expect(texts('  git   push  ')).toEqual(['git push']);
    expect(texts('echo hi;git push')).toEqual(['echo hi', 'git push']);
    expect(texts('true && git push origin || x | y & z')).toEqual(['true', 'git push origin', 'x', 'y', 'z']);
    expect(texts('\n\tgit\tpush\n')).toEqual(['git push']);
    expect(texts('(cd x && git push) 2>&1')).toEqual(['cd x', 'git push', '2>&1']);
    expect(texts('git \\\npush')).toEqual(['git push']);
  });

  it('reads inside substitutions, backquotes, ${...}, $((...)), process substitution and unquoted here-documents', () => {
    expect(lines('git log $(rm -rf ~)')).toEqual(['rm -rf ~', 'git log $(rm -rf ~)']);
    expect(lines('x=`git push`')).toEqual(['git push', '']);
    expect(lines('echo "$(git push "x")"')).toEqual(['git push x', 'echo $(git push "x")']);
    expect(lines('echo ${x:-$(git push)}')).toEqual(['git push', 'echo ${x:-$(git push)}']);
    expect(lines('echo $(( $(git push) + 1 ))')).toEqual(['git push', 'echo $(( $(git push) + 1 ))']);
    expect(lines('diff <(git push) x')).toEqual(['git push', 'diff <(git push) x']);
    expect(lines('cat <<EOF\n$(git push)\nEOF\n')).toEqual(['cat', 'git push']);
    expect(lines("cat <<'EOF'\n$(git push)\nEOF\n")).toEqual(['cat']);
    expect(lines('echo `echo \\`git push\\``')).toEqual(['git push', 'echo `git push`', 'echo `echo \\`git push\\``']);
  });

  it('drops reserved words, reads case items, function bodies and loop bodies, and skips for heads', () => {
    expect(lines('if ! git push; then echo ok; elif x; then :; else y; fi')).toEqual(['git push', 'echo ok', 'x', ':', 'y']);
    expect(lines('case $x in a) git push;; (b|c) echo b;; esac; z')).toEqual(['git push', 'echo b', 'z']);
    expect(lines('f() { git push; }; f')).toEqual(['git push', 'f']);
    expect(lines('for f in *.ts; do git add "$f"; done')).toEqual(['git add $f']);
    expect(lines('while read l; do eval "$l"; done')).toEqual(['read l', 'eval $l']);
  });

  it('removes quotes from words and marks expansions and globs as not literal', () => {
    const [command] = parseShellScript(`g'i't "pu"sh \\x $HOME a* [ab] {a,b} {} 'b*'`).commands;
    expect(command?.words.map((word) => [word.text, word.literal])).toEqual([
      ['git', true],
      ['push', true],
      ['x', true],
      ['$HOME', false],
      ['a*', false],
      ['[ab]', false],
      ['{a,b}', false],
      ['{}', true],
      ['b*', true],
    ]);
    expect(parseShellScript('A=1 B="x y" git push').commands[0]?.words.map((word) => word.assignment)).toEqual([true, true, false, false]);
  });

  it('normalizes whitespace between tokens only, keeping quotes and here-documents as written', () => {
    expect(parseShellScript('  echo   "a   b"\t;  git  push \n\n  x  ').normalized).toBe('echo "a   b" ; git push\nx');
    expect(parseShellScript('cat <<E\n  keep   this\nE\n').normalized).toBe('cat <<E\n  keep   this\nE');
  });
});

describe('what cannot be read', () => {
  it('an unclosed quote or stray parenthesis is unreadable to the end of its line; the next line is read', () => {
    expect(lines('print("x")\ngit push\n')).toEqual(['!print("x")', 'git push']);
    expect(lines("echo 'open\ngit push")).toEqual(["!echo 'open", 'git push']);
    expect(lines('a )\nb')).toEqual(['!a )', 'b']);
    expect(lines('function f { git push; }')[0]).toMatch(/^!/);
  });

  it(`substitutions nested more than ${MAX_NESTING} deep are unreadable, without deep recursion`, () => {
    const deep = `${'$('.repeat(MAX_NESTING + 1)}git push${')'.repeat(MAX_NESTING + 1)}`;
    expect(parseShellScript(deep).commands.some((command) => command.unreadable !== undefined)).toBe(true);
    const shallow = `${'$('.repeat(MAX_NESTING)}git push${')'.repeat(MAX_NESTING)}`;
    expect(lines(shallow)[0]).toBe('git push');
    expect(() => parseShellScript('$('.repeat(30_000))).not.toThrow();
    expect(() => parseShellScript('`\\`'.repeat(10_000))).not.toThrow();
  });

  it('never throws, whatever the text (property, fixed seed)', () => {
    const char = fc.constantFrom('a', ' ', '\n', '\t', ';', '&', '|', '(', ')', '$', '{', '}', '`', "'", '"', '\\', '<', '>', '#', '*', '=', 'case', 'in', 'esac', '<<E', 'E');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (parts) => {
        const parsed = parseShellScript(parts.join(''));
        for (const command of parsed.commands) expect(typeof command.text).toBe('string');
      }),
      { seed: 77, numRuns: 3_000 },
    );
  });
});

describe('unfinished input (stdin read by a shell across writes)', () => {
  it('keeps what a shell would join to the next write', () => {
    expect(parseShellScript('git status\n').incompleteTail).toBe('');
    expect(parseShellScript('git status\ngit pu').incompleteTail).toBe('git pu');
    expect(parseShellScript('git \\\n').incompleteTail).toBe('git \\\n');
    expect(parseShellScript('echo "\n').incompleteTail).toBe('echo "\n');
    expect(parseShellScript('cat <<EOF\n').incompleteTail).toBe('cat <<EOF\n');
    expect(parseShellScript('case x in\n').incompleteTail).toBe('case x in\n');
    expect(parseShellScript('echo $(\n').incompleteTail).toBe('echo $(\n');
  });
});

describe('argv prefixes', () => {
  const may = (script: string, prefix = ['git', 'push']): boolean => parseShellScript(script).commands.some((command) => mayRun(command, prefix));
  const surely = (script: string, prefix = ['git']): boolean => {
    const { commands } = parseShellScript(script);
    return commands.length > 0 && commands.every((command) => surelyRuns(command, prefix));
  };

  it('ask/deny: matches through quotes, paths, wrappers, unknown words and code it cannot see', () => {
    for (const script of [
      'git push',
      '\\git push',
      "'git' pu\"sh\"",
      '/usr/bin/git push origin',
      'FOO=1 git push',
      '$(echo git) push',
      'git $(echo push)',
      '$g push',
      'g* push',
      'env git push',
      'env -u X nice -n 5 timeout 10 git push',
      'command git push',
      'exec git push',
      'xargs git push',
      'sudo -u me git push',
      'find . -exec git push \\;',
      'sh -c "git push"',
      'bash script.sh',
      'echo git push | sh',
      'eval "git push"',
      '. ./script',
      'python3 -c "import os"',
      'perl -ne 1',
      'node -e 1',
      'awk "BEGIN{}"',
      'env "$CMD"',
      'echo "x',
    ]) {
      expect(may(script), script).toBe(true);
    }
    for (const script of ['git status', 'echo git push', 'git pull', 'gitpush', 'python3 script.py', 'nice -n 5 git status', 'ls -la', '']) {
      expect(may(script), script).toBe(false);
    }
  });

  it('allow: every simple command starts exactly with the prefix, sets no variable and writes no file', () => {
    for (const script of ['git status', 'git log --oneline && git status', 'git log $(git rev-parse HEAD)', 'git status 2>&1 >/dev/null', 'git apply < p.diff']) {
      expect(surely(script), script).toBe(true);
    }
    for (const script of ['git log; rm -rf ~', 'git log $(rm -rf ~)', '/usr/bin/git status', 'env git status', 'FOO=1 git status', '$G status', 'git log > ~/.bashrc', 'git log >&out', 'git status | head', 'echo "x', '']) {
      expect(surely(script), script).toBe(false);
    }
    expect(surely('git $X', ['git', 'log'])).toBe(false);
  });
});
