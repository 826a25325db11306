import { beforeAll, describe, expect, it } from 'vitest';
import { createWasiHost } from '../../../src/wasm/wasi/host.ts';
import { WasiExit } from '../../../src/wasm/wasi/types.ts';
import { baseOptions, type Fixture, fixtureHost, loadFixture } from './fixtures.ts';

let env: Fixture;
let stdin: Fixture;
let exit: Fixture;
let spew: Fixture;
let hello: Fixture;

beforeAll(async () => {
  [env, stdin, exit, spew, hello] = await Promise.all([
    loadFixture('wasi-env'),
    loadFixture('wasi-stdin'),
    loadFixture('wasi-exit'),
    loadFixture('wasi-spew'),
    loadFixture('hello'),
  ]);
}, 60_000);

describe('wasi:cli/environment', () => {
  it('passes args with argv[0] = the tool name', () => {
    const r = env.run({ args: ['my_tool', 'a b', '', 'ünï'] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('argc=4\narg[0]=my_tool\narg[1]=a b\narg[2]=\narg[3]=ünï\n');
  });

  it('shows exactly the given env, never the host environment', () => {
    process.env.TOOLHOST_LEAK = 'x';
    try {
      const r = env.run({ env: { FOO: 'bar', SPACE: ' ', 'WITH=EQ': 'v=1' } });
      const lines = r.stdout.split('\n').filter((l) => l.startsWith('env='));
      expect(lines.sort()).toEqual(['env=FOO=bar', 'env=SPACE= ', 'env=WITH=EQ=v=1'].sort());
      expect(r.stdout).toContain('leak=(none)');
      const none = env.run({});
      expect(none.stdout).toContain('envc=0\n');
      expect(none.stdout).not.toContain('TOOLHOST_LEAK');
    } finally {
      delete process.env.TOOLHOST_LEAK;
    }
  });

  it('passes empty values intact once the glue reallocs empty strings (jco 1.11 glue + adapter issue)', async () => {
    const patched = await loadFixture('wasi-env', { patchEmptyStrings: true });
    const r = patched.run({ env: { E1: '', E2: '', Z: 'z' } });
    expect(r.stdout.split('\n').filter((l) => l.startsWith('env='))).toEqual(['env=E1=', 'env=E2=', 'env=Z=z']);
    // Unpatched glue: the adapter loses the NUL after an empty value; the preview1 host has no adapter.
    expect(env.run({ env: { E1: '', Z: 'z' } }).stdout).toContain(fixtureHost() === 'preview1' ? 'env=E1=\nenv=Z=z\n' : 'env=E1=Z=z');
  }, 30_000);

  it('has no initial cwd', () => {
    const host = createWasiHost(baseOptions());
    const cli = host.imports['wasi:cli/environment'] as { initialCwd(): unknown; getArguments(): string[] };
    expect(cli.initialCwd()).toBeUndefined();
    expect(cli.getArguments()).toEqual(['tool']);
  });
});

describe('wasi:cli/stdin', () => {
  it('reads the given bytes', () => {
    const r = stdin.run({ stdin: new TextEncoder().encode('line 1\nline 2\n') });
    expect(r.stdout).toBe('stdin:14:line 1\nline 2\n');
  });

  it('is empty when not given', () => {
    expect(stdin.run({}).stdout).toBe('stdin:0:');
  });

  it('delivers binary and large input intact', () => {
    const data = new Uint8Array(300_000).map((_, i) => (i * 7) & 0xff);
    const r = stdin.run({ stdin: data });
    expect(r.out.bytes.subarray(0, 13)).toEqual(new TextEncoder().encode('stdin:300000:'));
    expect(r.out.bytes.subarray(13)).toEqual(data);
  });
});

describe('wasi:cli/exit', () => {
  it('exit(0) ends the call with code 0 and keeps the output', () => {
    const r = exit.run({ args: ['exit', '0'] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('before-exit\n');
    expect(r.stderr).toBe('stderr-before-exit\n');
  });

  it('exit(3) unwinds the guest with a non-zero code (the preview1 adapter maps every non-zero code to 1; the preview1 host keeps it)', () => {
    const r = exit.run({ args: ['exit', '3'] });
    expect(r.error).toBeUndefined();
    expect(r.exitCode).toBe(fixtureHost() === 'preview1' ? 3 : 1);
    expect(r.stdout).toBe('before-exit\n');
    expect(r.stdout).not.toContain('after-exit');
  });

  it('never exits the host process; exit-with-code keeps the exact code', () => {
    const host = createWasiHost(baseOptions());
    const cli = host.imports['wasi:cli/exit'] as { exit(s: { tag: string }): void; exitWithCode(c: number): void };
    expect(() => cli.exit({ tag: 'ok' })).toThrow(WasiExit);
    const codes = [() => cli.exit({ tag: 'ok' }), () => cli.exit({ tag: 'err' }), () => cli.exitWithCode(3), () => cli.exitWithCode(255)].map((f) => {
      try {
        f();
      } catch (e) {
        return (e as WasiExit).exitCode;
      }
      return undefined;
    });
    expect(codes).toEqual([0, 1, 3, 255]);
  });

  it('a run that returns normally has exit code 0', () => {
    const r = hello.run({ args: ['hello', 'world'] });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('{"content":"hi world"}\n');
  });
});

describe('stdout/stderr capture', () => {
  it('captures each stream separately per call', () => {
    const a = env.run({ args: ['a'] });
    const b = env.run({ args: ['b'] });
    expect(a.stdout).toContain('arg[0]=a\n');
    expect(a.stdout).not.toContain('arg[0]=b');
    expect(b.stdout).toContain('arg[0]=b\n');
    expect(a.stderr).toBe('to-stderr\n');
    expect(a.out.truncated).toBe(false);
    expect(a.out.totalBytes).toBe(a.out.bytes.byteLength);
  });

  it('caps stdout: keeps the first bytes, counts the rest, sets truncated', () => {
    const r = spew.run({ args: ['spew', '2'], outputLimitBytes: 100_000 });
    expect(r.exitCode).toBe(0);
    expect(r.out.bytes.byteLength).toBe(100_000);
    expect(r.out.totalBytes).toBe(2 << 20);
    expect(r.out.truncated).toBe(true);
    expect(r.out.bytes.every((b) => b === 0x78)).toBe(true);
    expect(r.err.truncated).toBe(false);
  });

  it('caps stderr independently', () => {
    const r = spew.run({ args: ['spew', '1', 'err'], outputLimitBytes: 1000 });
    expect(r.err.bytes.byteLength).toBe(1000);
    expect(r.err.totalBytes).toBe(1 << 20);
    expect(r.err.truncated).toBe(true);
    expect(r.out.totalBytes).toBe(0);
  });

  it('a zero cap keeps nothing but still counts', () => {
    const r = hello.run({ outputLimitBytes: 0 });
    expect(r.out.bytes.byteLength).toBe(0);
    expect(r.out.totalBytes).toBe(r.stdout.length + '{"content":"hi none"}\n'.length);
    expect(r.out.truncated).toBe(true);
  });

  it('keeps host memory bounded while a guest writes 200 MB', () => {
    const before = process.memoryUsage();
    const r = spew.run({ args: ['spew', '200'], outputLimitBytes: 1 << 20 });
    const after = process.memoryUsage();
    expect(r.exitCode).toBe(0);
    expect(r.out.totalBytes).toBe(200 * (1 << 20));
    expect(r.out.bytes.byteLength).toBe(1 << 20);
    expect(r.out.bytes.buffer.byteLength).toBeLessThanOrEqual(1 << 20);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(32 << 20);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(80 << 20);
  }, 30_000);

  it('grows the capture buffer geometrically from small', () => {
    const r = hello.run({ outputLimitBytes: 64 << 20 });
    expect(r.out.bytes.buffer.byteLength).toBeLessThanOrEqual(4096);
  });
});

describe('wasi:cli/terminal-*', () => {
  it('reports no terminal to the guest', () => {
    expect(env.run({}).stdout).toContain('isatty=000\n');
  });

  it('every terminal getter returns none', () => {
    const { imports } = createWasiHost(baseOptions());
    expect((imports['wasi:cli/terminal-stdin'] as { getTerminalStdin(): unknown }).getTerminalStdin()).toBeUndefined();
    expect((imports['wasi:cli/terminal-stdout'] as { getTerminalStdout(): unknown }).getTerminalStdout()).toBeUndefined();
    expect((imports['wasi:cli/terminal-stderr'] as { getTerminalStderr(): unknown }).getTerminalStderr()).toBeUndefined();
  });
});
