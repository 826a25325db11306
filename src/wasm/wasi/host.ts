/**
 * `createWasiHost`: one WASI 0.2 host per call for jco's `--instantiation sync` glue, keyed by
 * unversioned interface name (the glue reads `imports['wasi:cli/stdout']` whatever version the
 * component imports, 0.2.0–0.2.3). Interfaces without per-call state are shared frozen objects;
 * per call there are only a few closures and the capture streams, so creating a host costs
 * microseconds and, without preopens, no fs call.
 */
import { createCallContext } from './call-context.ts';
import { createEnvironment } from './cli-environment.ts';
import { cliExitImports } from './cli-exit.ts';
import { createStdio } from './cli-stdio.ts';
import {
  terminalInputImports,
  terminalOutputImports,
  terminalStderrImports,
  terminalStdinImports,
  terminalStdoutImports,
} from './cli-terminal.ts';
import { createMonotonicClock, timezoneImports, wallClockImports } from './clocks.ts';
import { createPreopens } from './filesystem-preopens.ts';
import { filesystemTypesImports } from './filesystem-types.ts';
import { httpTypesImports } from './http.ts';
import { createOutgoingHandler } from './http-outgoing.ts';
import { networkCallOptions } from '../net/call-options.ts';
import { createNetworkEventLog } from '../net/events.ts';
import { ioErrorImports } from './io-error.ts';
import { ioPollImports } from './io-poll.ts';
import { ioStreamsImports } from './io-streams.ts';
import { insecureImports, insecureSeedImports, randomImports } from './random.ts';
import {
  createInstanceNetwork,
  ipNameLookupImports,
  networkImports,
  tcpCreateSocketImports,
  tcpImports,
  udpCreateSocketImports,
  udpImports,
} from './sockets.ts';
import type { WasiHost, WasiHostOptions } from './types.ts';

/** The interfaces whose implementation is the same for every call. */
const SHARED_IMPORTS = Object.freeze({
  'wasi:cli/exit': cliExitImports,
  'wasi:cli/terminal-input': terminalInputImports,
  'wasi:cli/terminal-output': terminalOutputImports,
  'wasi:cli/terminal-stdin': terminalStdinImports,
  'wasi:cli/terminal-stdout': terminalStdoutImports,
  'wasi:cli/terminal-stderr': terminalStderrImports,
  'wasi:clocks/wall-clock': wallClockImports,
  'wasi:clocks/timezone': timezoneImports,
  'wasi:filesystem/types': filesystemTypesImports,
  'wasi:io/error': ioErrorImports,
  'wasi:io/poll': ioPollImports,
  'wasi:io/streams': ioStreamsImports,
  'wasi:random/random': randomImports,
  'wasi:random/insecure': insecureImports,
  'wasi:random/insecure-seed': insecureSeedImports,
  'wasi:sockets/network': networkImports,
  'wasi:sockets/ip-name-lookup': ipNameLookupImports,
  'wasi:sockets/tcp': tcpImports,
  'wasi:sockets/tcp-create-socket': tcpCreateSocketImports,
  'wasi:sockets/udp': udpImports,
  'wasi:sockets/udp-create-socket': udpCreateSocketImports,
  'wasi:http/types': httpTypesImports,
});

/** Every unversioned interface name `createWasiHost(...).imports` provides. */
export const WASI_INTERFACES: readonly string[] = Object.freeze([
  ...Object.keys(SHARED_IMPORTS),
  'wasi:cli/environment',
  'wasi:cli/stdin',
  'wasi:cli/stdout',
  'wasi:cli/stderr',
  'wasi:clocks/monotonic-clock',
  'wasi:filesystem/preopens',
  'wasi:http/outgoing-handler',
  'wasi:sockets/instance-network',
].sort());

export function createWasiHost(options: WasiHostOptions): WasiHost {
  const ctx = createCallContext(options.timeoutMs);
  const stdio = createStdio(options.stdin, options.outputLimitBytes, options.onStderr);
  // Network (src/wasm/net/): the outgoing handler checks each request against this call's grant and logs it.
  const networkLog = createNetworkEventLog();
  const network = options.network ?? networkCallOptions({ allow: [...options.networkAllow] });
  // An explicit literal (not a spread of SHARED_IMPORTS): V8 creates it from a boilerplate.
  const imports: Record<string, unknown> = {
    'wasi:cli/environment': createEnvironment(options.args, options.env),
    'wasi:cli/exit': cliExitImports,
    'wasi:cli/stdin': stdio.stdin,
    'wasi:cli/stdout': stdio.stdout,
    'wasi:cli/stderr': stdio.stderr,
    'wasi:cli/terminal-input': terminalInputImports,
    'wasi:cli/terminal-output': terminalOutputImports,
    'wasi:cli/terminal-stdin': terminalStdinImports,
    'wasi:cli/terminal-stdout': terminalStdoutImports,
    'wasi:cli/terminal-stderr': terminalStderrImports,
    'wasi:clocks/monotonic-clock': createMonotonicClock(ctx),
    'wasi:clocks/wall-clock': wallClockImports,
    'wasi:clocks/timezone': timezoneImports,
    'wasi:filesystem/types': filesystemTypesImports,
    'wasi:filesystem/preopens': createPreopens(options.preopens, ctx),
    'wasi:io/error': ioErrorImports,
    'wasi:io/poll': ioPollImports,
    'wasi:io/streams': ioStreamsImports,
    'wasi:random/random': randomImports,
    'wasi:random/insecure': insecureImports,
    'wasi:random/insecure-seed': insecureSeedImports,
    'wasi:sockets/network': networkImports,
    'wasi:sockets/instance-network': createInstanceNetwork(ctx, network, networkLog),
    'wasi:sockets/ip-name-lookup': ipNameLookupImports,
    'wasi:sockets/tcp': tcpImports,
    'wasi:sockets/tcp-create-socket': tcpCreateSocketImports,
    'wasi:sockets/udp': udpImports,
    'wasi:sockets/udp-create-socket': udpCreateSocketImports,
    'wasi:http/types': httpTypesImports,
    'wasi:http/outgoing-handler': createOutgoingHandler(ctx, network, networkLog),
  };
  const { out, err } = stdio;
  return {
    imports,
    stdout: () => out.captured(),
    stderr: () => err.captured(),
    networkEvents: () => networkLog,
    dispose: () => {
      if (ctx.openFiles.size === 0) return;
      for (const file of [...ctx.openFiles]) file.close();
    },
  };
}
