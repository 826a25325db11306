/**
 * deploy/: the systemd unit passes `systemd-analyze verify` with no warning, and the Dockerfile parses into known instructions (continuations, comments, flags, JSON
 * forms) and keeps the promises the image makes: multi-stage with every `COPY --from` naming an earlier
 * stage, a Node 22 base, bubblewrap installed in the runtime stage, a numeric non-root USER, a
 * HEALTHCHECK on /healthz, an exec-form ENTRYPOINT. No container runtime is needed (none runs on the CI
 * machine; BuildKit's own parser and hadolint were run on the file by hand).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../cli/run-cli.ts';

const DEPLOY = join(PROJECT_ROOT, 'deploy');

/** The instructions of the Dockerfile reference. */
const INSTRUCTIONS = new Set(['FROM', 'RUN', 'CMD', 'LABEL', 'MAINTAINER', 'EXPOSE', 'ENV', 'ADD', 'COPY', 'ENTRYPOINT', 'VOLUME', 'USER', 'WORKDIR', 'ARG', 'ONBUILD', 'STOPSIGNAL', 'HEALTHCHECK', 'SHELL']);

interface Instruction {
  line: number;
  keyword: string;
  /** `--name=value` flags before the arguments. */
  flags: Record<string, string>;
  /** The rest, continuations joined. */
  text: string;
  /** The stage (FROM) it belongs to, 0-based; -1 before the first FROM. */
  stage: number;
}

/** Parses a Dockerfile (default escape `\`): comments and blank lines dropped, continuations joined, flags split off. */
function parseDockerfile(source: string): { instructions: Instruction[]; stages: (string | undefined)[]; problems: string[] } {
  const instructions: Instruction[] = [];
  const stages: (string | undefined)[] = [];
  const problems: string[] = [];
  const lines = source.split('\n');
  let index = 0;
  while (index < lines.length) {
    const start = index;
    let logical = '';
    for (;;) {
      const raw = lines[index] ?? '';
      index += 1;
      if (/^\s*#/.test(raw) && logical !== '') continue; // a comment inside a continuation is dropped
      const continued = /\\\s*$/.test(raw) && !/^\s*#/.test(raw);
      logical += continued ? `${raw.replace(/\\\s*$/, '')} ` : raw;
      if (!continued || index >= lines.length) {
        if (continued) problems.push(`line ${start + 1}: the file ends inside a continuation`);
        break;
      }
    }
    const text = logical.trim();
    if (text === '' || text.startsWith('#')) continue;
    const match = /^([A-Za-z]+)(?:\s+(.*))?$/.exec(text);
    const keyword = match?.[1]?.toUpperCase() ?? '';
    if (!INSTRUCTIONS.has(keyword)) {
      problems.push(`line ${start + 1}: unknown instruction ${JSON.stringify(text.split(/\s/)[0])}`);
      continue;
    }
    let rest = match?.[2]?.trim() ?? '';
    const flags: Record<string, string> = {};
    for (let flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest); flag !== null; flag = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(rest)) {
      flags[flag[1] as string] = flag[2] ?? '';
      rest = rest.slice(flag[0].length);
    }
    if (rest === '') problems.push(`line ${start + 1}: ${keyword} has no arguments`);
    if (rest.startsWith('[')) {
      try {
        const form: unknown = JSON.parse(rest);
        if (!Array.isArray(form) || !form.every((item) => typeof item === 'string')) problems.push(`line ${start + 1}: ${keyword}'s exec form is not a JSON array of strings`);
      } catch {
        problems.push(`line ${start + 1}: ${keyword}'s exec form is not valid JSON`);
      }
    }
    if (keyword === 'FROM') {
      const stageMatch = /^(\S+)(?:\s+AS\s+([A-Za-z][\w.-]*))?$/i.exec(rest);
      if (stageMatch === null) problems.push(`line ${start + 1}: FROM <image> [AS <name>] expected`);
      stages.push(stageMatch?.[2]?.toLowerCase());
    }
    instructions.push({ line: start + 1, keyword, flags, text: rest, stage: stages.length - 1 });
  }
  return { instructions, stages, problems };
}



describe('deploy/Dockerfile', () => {
  const source = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
  const { instructions, stages, problems } = parseDockerfile(source);
  const last = stages.length - 1;
  const runtime = instructions.filter((instruction) => instruction.stage === last);

  it('parses: known instructions, closed continuations, valid exec forms', () => {
    expect(problems).toEqual([]);
    expect(instructions.length).toBeGreaterThan(10);
  });

  it('is multi-stage; every COPY --from names an earlier stage; the base is Node 22', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const copy of instructions.filter((instruction) => instruction.flags['from'] !== undefined)) {
      const from = copy.flags['from']?.toLowerCase();
      expect(stages.slice(0, copy.stage), `line ${copy.line}`).toContain(from);
    }
    const base = instructions.find((instruction) => instruction.keyword === 'ARG' && instruction.text.startsWith('NODE_IMAGE='));
    expect(base?.text).toMatch(/^NODE_IMAGE=node:22[-.]/);
    for (const from of instructions.filter((instruction) => instruction.keyword === 'FROM')) expect(from.text).toMatch(/^\$\{NODE_IMAGE\}\s/);
  });

  it('installs bubblewrap in the runtime stage and says what the sandbox needs from the container runtime', () => {
    expect(runtime.some((instruction) => instruction.keyword === 'RUN' && /apt-get install[^&]*\bbubblewrap\b/.test(instruction.text))).toBe(true);
    expect(source).toMatch(/seccomp/);
    expect(source).toMatch(/user namespaces/);
  });

  it('runs as a numeric non-root user, checks /healthz, and starts toolhost serve in exec form', () => {
    const users = runtime.filter((instruction) => instruction.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)?.text ?? '';
    expect(user).toMatch(/^\d+(:\d+)?$/);
    expect(user.split(':')[0]).not.toBe('0');
    const health = runtime.find((instruction) => instruction.keyword === 'HEALTHCHECK');
    expect(health?.text).toMatch(/^CMD\s/);
    expect(health?.text).toContain('/healthz');
    const entrypoint = runtime.find((instruction) => instruction.keyword === 'ENTRYPOINT');
    expect(entrypoint?.text.startsWith('[')).toBe(true);
    expect(JSON.parse(entrypoint?.text ?? '[]')).toContain('toolhost');
    expect(JSON.parse(runtime.find((instruction) => instruction.keyword === 'CMD')?.text ?? '[]')).toEqual(['serve']);
  });

  it('bakes the transpile cache as the runtime user and names the only paths written at run time', () => {
    const userIndex = runtime.findIndex((instruction) => instruction.keyword === 'USER');
    const warm = runtime.findIndex((instruction) => instruction.keyword === 'RUN' && /\btoolhost list\b/.test(instruction.text));
    expect(warm).toBeGreaterThan(userIndex);
    expect(runtime.some((instruction) => instruction.keyword === 'COPY' && instruction.text.startsWith('extensions/tools/ '))).toBe(true);
    for (const path of ['/var/lib/toolhost/workspace', '/tmp', '/run/toolhost']) expect(source).toContain(`#   ${path}`);
    expect(source).toMatch(/--read-only --tmpfs \/tmp --tmpfs \/run\/toolhost/);
  });

  it('the parser catches a broken file (so the checks above can fail)', () => {
    expect(parseDockerfile('FROM node:22 AS a\nCOPYY x y\nRUN echo \\').problems).toHaveLength(2);
    expect(parseDockerfile('FROM node:22\nCMD ["serve"\n').problems[0]).toMatch(/exec form/);
  });

});

// systemd-analyze comes with Debian's systemd package (.ci/run installs it when missing).
describe('deploy/toolhost.service', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'toolhost-unit-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const unit = readFileSync(join(DEPLOY, 'toolhost.service'), 'utf8');

  /** `systemd-analyze verify` on a copy whose ExecStart names a stub (verify wants the program to exist here). */
  function verify(text: string): { status: number | null; output: string } {
    const stub = join(scratch, 'toolhost');
    writeFileSync(stub, '#!/bin/sh\n');
    chmodSync(stub, 0o755);
    const file = join(scratch, 'toolhost.service');
    writeFileSync(file, text.replaceAll('/usr/local/bin/toolhost', stub));
    const result = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 60_000 });
    // Lines about other units (the host's own) are not this file's.
    const output = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => line.includes('toolhost.service') || line.includes(scratch))
      .join('\n');
    return { status: result.status, output };
  }

  it('verifies with no warning', () => {
    expect(unit).toMatch(/^ExecStart=\/usr\/local\/bin\/toolhost serve /m);
    expect(verify(unit)).toEqual({ status: 0, output: '' });
  });

  it('runs as its own user with the state, cache and runtime folders outside the workspace', () => {
    expect(unit).toMatch(/^User=toolhost$/m);
    expect(unit).toMatch(/^StateDirectory=toolhost /m);
    expect(unit).toMatch(/^CacheDirectory=toolhost$/m);
    expect(unit).toMatch(/^RuntimeDirectory=toolhost$/m);
    expect(unit).not.toMatch(/^(RestrictNamespaces|PrivateUsers|SystemCallFilter|ProtectKernelTunables|ProtectProc)=/m);
  });

  it('a bad value or key is reported (so the check above can fail)', () => {
    expect(verify(unit.replace('ProtectHome=yes', 'ProtectHome=bogus')).output).toMatch(/ProtectHome|protect home/i);
    expect(verify(unit.replace('[Service]', '[Service]\nNoSuchKey=1')).output).toMatch(/NoSuchKey/);
  });
});
