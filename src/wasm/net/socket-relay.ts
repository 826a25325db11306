/**
 * The network thread's half of wasi:sockets: TCP connections and UDP sockets it holds for blocked
 * guest threads, by number. Destinations were checked by the guest thread before they get here
 * (sockets.ts); this file only does the I/O. Reads wait for at least one byte (or the end); writes
 * answer once the bytes were handed to the kernel.
 */
import { createSocket, type Socket as UdpNodeSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { connect, type Socket } from 'node:net';
import type { LookupReply, LookupRequest, TcpReply, TcpRequest, UdpReply, UdpRequest } from './protocol.ts';

/** Bytes buffered per connection before the relay stops reading from the peer. */
const READ_BUFFER_BYTES = 1024 * 1024;
/** Datagrams queued per UDP socket; later ones are dropped (UDP may drop). */
const MAX_QUEUED_DATAGRAMS = 256;

/** Node error codes → wasi:sockets error codes. */
export function socketErrorCode(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection-refused';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection-reset';
    case 'ECONNABORTED':
      return 'connection-aborted';
    case 'ETIMEDOUT':
      return 'timeout';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'remote-unreachable';
    case 'EADDRINUSE':
      return 'address-in-use';
    case 'EMSGSIZE':
      return 'datagram-too-large';
    default:
      return 'unknown';
  }
}

interface TcpConnection {
  socket: Socket;
  chunks: Buffer[];
  buffered: number;
  ended: boolean;
  error: string | undefined;
  waiter: (() => void) | undefined;
}

interface UdpEndpoint {
  socket: UdpNodeSocket;
  queue: Array<{ address: string; port: number; data: Uint8Array }>;
  waiter: (() => void) | undefined;
}

export class SocketRelay {
  readonly #tcp = new Map<number, TcpConnection>();
  readonly #udp = new Map<number, UdpEndpoint>();
  #next = 1;

  async lookup(request: LookupRequest): Promise<LookupReply> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<LookupReply>((resolve) => {
      timer = setTimeout(() => resolve({ id: request.id, ok: false, error: 'temporary-resolver-failure' }), request.timeoutMs);
    });
    const answer = lookup(request.name, { all: true, verbatim: true }).then(
      (found): LookupReply => ({ id: request.id, ok: true, addresses: found.map(({ address }) => address) }),
      (error: NodeJS.ErrnoException): LookupReply => ({ id: request.id, ok: false, error: error.code === 'ENOTFOUND' || error.code === 'ENODATA' ? 'name-unresolvable' : 'permanent-resolver-failure' }),
    );
    try {
      return await Promise.race([answer, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  tcp(request: TcpRequest): Promise<TcpReply> {
    const { id } = request;
    if (request.op === 'tcp-connect') return this.#connect(request);
    const connection = this.#tcp.get(request.conn);
    if (connection === undefined) return Promise.resolve({ id, ok: false, error: 'invalid-state' });
    switch (request.op) {
      case 'tcp-read':
        return this.#read(id, connection, request.max);
      case 'tcp-write':
        return new Promise((resolve) => {
          if (connection.error !== undefined) return resolve({ id, ok: false, error: connection.error });
          connection.socket.write(request.bytes, (error) => resolve(error ? { id, ok: false, error: socketErrorCode(error) } : { id, ok: true }));
        });
      case 'tcp-shutdown':
        if (request.how !== 'receive') connection.socket.end();
        if (request.how !== 'send') {
          connection.ended = true;
          connection.chunks = [];
        }
        return Promise.resolve({ id, ok: true });
      case 'tcp-close':
        connection.socket.destroy();
        this.#tcp.delete(request.conn);
        return Promise.resolve({ id, ok: true });
    }
  }

  #connect(request: Extract<TcpRequest, { op: 'tcp-connect' }>): Promise<TcpReply> {
    return new Promise((resolve) => {
      const socket = connect({ host: request.address, port: request.port });
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ id: request.id, ok: false, error: 'timeout' });
      }, request.timeoutMs);
      socket.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        resolve({ id: request.id, ok: false, error: socketErrorCode(error) });
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        const conn = this.#next++;
        const connection: TcpConnection = { socket, chunks: [], buffered: 0, ended: false, error: undefined, waiter: undefined };
        const wake = () => {
          const waiter = connection.waiter;
          connection.waiter = undefined;
          waiter?.();
        };
        socket.on('data', (chunk: Buffer) => {
          if (connection.ended) return;
          connection.chunks.push(chunk);
          connection.buffered += chunk.byteLength;
          if (connection.buffered > READ_BUFFER_BYTES) socket.pause();
          wake();
        });
        socket.on('end', () => {
          connection.ended = true;
          wake();
        });
        socket.on('error', (error: NodeJS.ErrnoException) => {
          connection.error = socketErrorCode(error);
          wake();
        });
        this.#tcp.set(conn, connection);
        resolve({ id: request.id, ok: true, conn, localAddress: socket.localAddress ?? '', localPort: socket.localPort ?? 0 });
      });
    });
  }

  #read(id: number, connection: TcpConnection, max: number): Promise<TcpReply> {
    return new Promise((resolve) => {
      const attempt = () => {
        if (connection.buffered > 0) {
          const all = Buffer.concat(connection.chunks);
          const taken = all.subarray(0, max);
          const rest = all.subarray(taken.byteLength);
          connection.chunks = rest.byteLength > 0 ? [rest] : [];
          connection.buffered = rest.byteLength;
          if (connection.buffered <= READ_BUFFER_BYTES) connection.socket.resume();
          resolve({ id, ok: true, bytes: new Uint8Array(taken) });
        } else if (connection.error !== undefined) resolve({ id, ok: false, error: connection.error });
        else if (connection.ended) resolve({ id, ok: true, bytes: null });
        else connection.waiter = attempt;
      };
      attempt();
    });
  }

  udp(request: UdpRequest): Promise<UdpReply> {
    const { id } = request;
    if (request.op === 'udp-open') {
      return new Promise((resolve) => {
        const socket = createSocket(request.family === 6 ? 'udp6' : 'udp4');
        const conn = this.#next++;
        const endpoint: UdpEndpoint = { socket, queue: [], waiter: undefined };
        socket.on('message', (data, remote) => {
          if (endpoint.queue.length < MAX_QUEUED_DATAGRAMS) endpoint.queue.push({ address: remote.address, port: remote.port, data: new Uint8Array(data) });
          const waiter = endpoint.waiter;
          endpoint.waiter = undefined;
          waiter?.();
        });
        // Before the bind an error fails the open; later ones (ICMP errors and the like) are dropped, as UDP drops.
        socket.on('error', (error: NodeJS.ErrnoException) => resolve({ id, ok: false, error: socketErrorCode(error) }));
        socket.bind(0, () => {
          this.#udp.set(conn, endpoint);
          const local = socket.address();
          resolve({ id, ok: true, conn, localAddress: local.address, localPort: local.port });
        });
      });
    }
    const endpoint = this.#udp.get(request.conn);
    if (endpoint === undefined) return Promise.resolve({ id, ok: false, error: 'invalid-state' });
    switch (request.op) {
      case 'udp-send':
        return new Promise((resolve) => {
          endpoint.socket.send(request.bytes, request.port, request.address, (error) => resolve(error ? { id, ok: false, error: socketErrorCode(error) } : { id, ok: true }));
        });
      case 'udp-receive':
        return new Promise((resolve) => {
          const attempt = () => {
            if (endpoint.queue.length === 0) {
              endpoint.waiter = attempt;
              return;
            }
            resolve({ id, ok: true, datagrams: endpoint.queue.splice(0, Math.max(1, request.max)) });
          };
          attempt();
        });
      case 'udp-close':
        endpoint.socket.close();
        this.#udp.delete(request.conn);
        return Promise.resolve({ id, ok: true });
    }
  }
}
