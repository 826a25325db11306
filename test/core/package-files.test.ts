/**
 * The npm package ships what its README links to: every relative link or image in README.md (markdown
 * inline and reference links, HTML src/href) names a file in the repository AND a file that
 * `npm pack --dry-run --json` would put in the tarball (package.json `files`, plus what npm always
 * adds). Also LICENSE and CHANGELOG.md ship. Runs npm itself (no network: `--dry-run`, and
 * `--ignore-scripts` so `prepare` does not build).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/run-cli.ts';

/** Relative link targets of a markdown text, without `#fragment` or `?query`, in order of first appearance. */
function relativeLinks(markdown: string): string[] {
  // code spans and fenced blocks hold examples, not links
  const text = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets: string[] = [];
  for (const match of text.matchAll(/!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1] ?? '');
  for (const match of text.matchAll(/^\s{0,3}\[[^\]\n]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) targets.push(match[1] ?? '');
  for (const match of text.matchAll(/<(?:img|a|source)\b[^>]*\b(?:src|href|srcset)\s*=\s*"([^"]+)"/gi)) targets.push(match[1] ?? '');
  const relative = targets
    .map((target) => target.trim())
    .filter((target) => target !== '' && !target.startsWith('#') && !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//'))
    .map((target) => decodeURIComponent(target.replace(/[#?].*$/, '')))
    .filter((target) => target !== '');
  return [...new Set(relative)];
}

/** The paths `npm pack --dry-run` would put in the tarball. */
function packedFiles(): string[] {
  const npm = join(dirname(process.execPath), 'npm');
  const run = spawnSync(existsSync(npm) ? npm : 'npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  const [pack] = JSON.parse(run.stdout) as { files: { path: string }[] }[];
  return (pack?.files ?? []).map((file) => file.path);
}

describe('the npm package ships what the README links to', () => {
  let files: string[];
  beforeAll(() => {
    files = packedFiles();
  }, 120_000);

  it('finds links of every form (so the check below has something to check)', () => {
    const sample = [
      'See [the guide](docs/guide.md#setup) and ![shot](img/a.png "title").',
      '[ref]: ./notes/ref.md',
      '<img src="assets/logo.svg" alt="">',
      '[site](https://example.com) [anchor](#x) `[not](code.md)`',
      '```\n[fenced](fenced.md)\n```',
    ].join('\n');
    expect(relativeLinks(sample)).toEqual(['docs/guide.md', 'img/a.png', './notes/ref.md', 'assets/logo.svg']);
  });

  it('every relative link in README.md names a file in the repository and in the tarball', () => {
    const links = relativeLinks(readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8'));
    expect(links.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const link of links) {
      const path = normalize(link).replace(/\/$/, '');
      if (path.startsWith('..')) {
        problems.push(`${link}: points outside the package`);
        continue;
      }
      if (!existsSync(join(PROJECT_ROOT, path))) {
        problems.push(`${link}: no such file in the repository`);
        continue;
      }
      const shipped = statSync(join(PROJECT_ROOT, path)).isDirectory() ? files.some((file) => file.startsWith(`${path}/`)) : files.includes(path);
      if (!shipped) problems.push(`${link}: not in the npm package (package.json "files")`);
    }
    expect(problems).toEqual([]);
  });

  it('ships the license, the changelog and the deploy files', () => {
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md', 'package.json', 'deploy/config.example.json', 'deploy/Dockerfile', 'deploy/toolhost.service']));
    expect(readFileSync(join(PROJECT_ROOT, 'LICENSE'), 'utf8')).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect((JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { license: string }).license).toBe('Apache-2.0');
  });

  it('ships no tests or sources beyond the linked files', () => {
    const stray = files.filter((file) => (file.startsWith('test/') && file !== 'test/console/console.png') || (file.startsWith('src/') && !file.endsWith('README.md')));
    expect(stray).toEqual([]);
  });
});
