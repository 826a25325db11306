/**
 * A host-side racer for confinement stress tests: a separate process that atomically swaps two
 * paths (`renameat2(RENAME_EXCHANGE)`, via python3's ctypes) in a tight loop until stopped. Swapping a
 * real directory with a symlink that points outside is the classic attack on check-then-use path code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RACER_SCRIPT = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
AT_FDCWD, RENAME_EXCHANGE = -100, 2
first, second = sys.argv[1].encode(), sys.argv[2].encode()
if libc.renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE) != 0:
    sys.stdout.write("error %d\\n" % ctypes.get_errno()); sys.stdout.flush(); sys.exit(1)
libc.renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE)
sys.stdout.write("ready\\n"); sys.stdout.flush()
swaps = 0
while True:
    libc.renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE)
    swaps += 1
`;

export interface ExchangeRacer {
  stop(): Promise<void>;
}

/** Starts swapping `first` and `second` (both must exist); resolves once the first swap worked. */
export async function startExchangeRacer(first: string, second: string): Promise<ExchangeRacer> {
  const child: ChildProcess = spawn('python3', ['-c', RACER_SCRIPT, first, second], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!chunk.toString().startsWith('ready')) {
    child.kill('SIGKILL');
    throw new Error(`the racer could not swap ${first} and ${second}: ${chunk.toString().trim()}`);
  }
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface RaceArena {
  /** Temp folder holding both sides; remove it when done. */
  base: string;
  /** The confined side: `dir/victim.txt` inside, and `swap`, a symlink to `outside`, for the racer to exchange with `dir`. */
  root: string;
  /** The side nothing may touch: holds `victim.txt` ("outside content"). */
  outside: string;
}

/** The layout every exchange-race test uses (see `RaceArena`). */
export function createRaceArena(prefix: string): RaceArena {
  const base = mkdtempSync(join(tmpdir(), prefix));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'dir'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim.txt'), 'outside content');
  writeFileSync(join(root, 'dir', 'victim.txt'), 'inside content');
  symlinkSync(outside, join(root, 'swap'));
  return { base, root, outside };
}
