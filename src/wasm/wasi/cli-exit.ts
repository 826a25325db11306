/**
 * wasi:cli/exit (0.2.0–0.2.3, plus the unstable `exit-with-code`): throws `WasiExit` to unwind the
 * guest. Never touches the host process.
 */
import { WasiExit } from './types.ts';

function exit(status: { tag: 'ok' | 'err' }): never {
  throw new WasiExit(status.tag === 'ok' ? 0 : 1);
}

function exitWithCode(code: number): never {
  throw new WasiExit(code & 0xff);
}

export const cliExitImports = Object.freeze({ exit, exitWithCode });
