/**
 * sock_accept, sock_recv, sock_send, sock_shutdown. Preview1 sockets work only on sockets handed to
 * the guest as preopened descriptors, and this host hands out none (network access is the WASI 0.2
 * component path's, under the tool's network policy): an unknown fd is `BADF`, any other `NOTSOCK`.
 */
import { ERRNO } from './errno.ts';
import { hostFunction, type ImportFunctions, type Preview1State } from './state.ts';

export function sockImports(state: Preview1State): ImportFunctions {
  const refuse = hostFunction((fd: number) => {
    state.fds.get(fd);
    throw ERRNO.NOTSOCK;
  });
  return { sock_accept: refuse, sock_recv: refuse, sock_send: refuse, sock_shutdown: refuse };
}
