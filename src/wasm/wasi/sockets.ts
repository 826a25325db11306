/**
 * wasi:sockets/network, instance-network, ip-name-lookup, tcp, tcp-create-socket, udp,
 * udp-create-socket (0.2.0–0.2.3), limited to the policy's `network.allow`:
 * - a name lookup answers only names an allow entry covers (else `access-denied`), and drops
 *   loopback/private/link-local/metadata addresses unless the entry names the host exactly;
 * - a TCP connect or UDP send goes only to `address:port` an entry admits: an IP entry, or an address
 *   this call's own lookup returned for an allowed name (so the address checked is the one used);
 * - binding a TCP socket and listening are refused (no policy grants them); a UDP socket binds to an
 *   ephemeral port only, and hands the guest only datagrams from destinations it may send to.
 * The I/O runs in the network thread while the guest thread blocks (src/wasm/net/sync-client.ts):
 * pollables are always ready, a read waits for at least one byte, all bounded by the call's deadline.
 * Sockets still open when the call ends are closed by the host's `dispose`.
 */
import { isIP } from 'node:net';
import type { CallContext } from './call-context.ts';
import { lastOperationFailed, STREAM_CLOSED } from './io-error.ts';
import { READY_POLLABLE, type Pollable } from './io-poll.ts';
import { InputStream, OutputStream } from './io-streams.ts';
import { WasiTimeout } from './types.ts';
import { specialAddressClass } from '../net/address-class.ts';
import { reservedEndpointAt, reservedReason } from '../net/reserved-endpoints.ts';
import { matchAllowedHost, matchAllowList, normalizeHost, parseAllowList, type AllowEntry } from '../net/allow-list.ts';
import { addressText, socketAddressOf, ipAddressOf, type IpAddress, type IpSocketAddress } from '../net/ip-address.ts';
import type { NetworkCallOptions } from '../net/call-options.ts';
import { recordNetworkEvent, type NetworkEvent, type NetworkEventLog } from '../net/events.ts';
import type { LookupReply, NetRequest, TcpReply, UdpReply } from '../net/protocol.ts';
import { netClient } from '../net/sync-client.ts';

type IpAddressFamily = 'ipv4' | 'ipv6';

const DENIED = 'access-denied';
const INVALID_STATE = 'invalid-state';

/** Per-call state of the socket interfaces, carried by the call's `network` resource. */
interface SocketState {
  readonly ctx: CallContext;
  readonly options: NetworkCallOptions;
  readonly entries: readonly AllowEntry[];
  readonly log: NetworkEventLog;
  /** Address → the allowed names this call's lookups resolved to it. */
  readonly resolved: Map<string, Set<string>>;
}

export class Network {
  readonly state: SocketState | undefined;
  constructor(state?: SocketState) {
    this.state = state;
  }
}

const NO_NETWORK = new Network();

function record(state: SocketState, event: Omit<NetworkEvent, 'durationMs'>, started: number): void {
  recordNetworkEvent(state.log, { ...event, durationMs: Math.round(performance.now() - started) });
}

/** Blocks on the network thread; past the call's deadline the call ends (`WasiTimeout`). */
function callNet<Reply extends { id: number }>(state: SocketState, request: Parameters<ReturnType<typeof netClient>['call']>[0]): Reply {
  const reply = netClient().call<Reply>(request, state.ctx.deadlineNs);
  if (reply === 'deadline') throw new WasiTimeout();
  return reply;
}

/** The entry admitting `address:port`: an IP entry, or an allowed name this call resolved to that address. */
function admits(state: SocketState, address: string, port: number): AllowEntry | undefined {
  const direct = matchAllowList(state.entries, { scheme: undefined, host: address, port });
  if (direct !== undefined) return direct;
  for (const name of state.resolved.get(address) ?? []) {
    const entry = matchAllowList(state.entries, { scheme: undefined, host: name, port });
    if (entry !== undefined) return entry;
  }
  return undefined;
}

export class ResolveAddressStream {
  private readonly addresses: string[];
  constructor(addresses: string[] = []) {
    this.addresses = addresses;
  }
  resolveNextAddress(): IpAddress | undefined {
    const next = this.addresses.shift();
    return next === undefined ? undefined : ipAddressOf(next);
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
}

function resolveAddresses(network: Network, name: string): ResolveAddressStream {
  const state = network.state;
  const host = normalizeHost(name);
  if (host === undefined) throw 'invalid-argument';
  if (state === undefined) throw DENIED;
  const started = performance.now();
  const event = { kind: 'lookup' as const, host, port: 0 };
  if (isIP(host) !== 0) return new ResolveAddressStream([host]);
  const entry = matchAllowedHost(state.entries, host);
  if (entry === undefined) {
    record(state, { ...event, decision: 'denied', reason: 'not in network.allow' }, started);
    throw DENIED;
  }
  let addresses = state.options.resolve[host];
  if (addresses === undefined) {
    const reply = callNet<LookupReply>(state, { op: 'lookup', name: host, timeoutMs: state.options.connectTimeoutMs });
    if (!reply.ok) {
      record(state, { ...event, decision: 'allowed', errorCode: reply.error }, started);
      throw reply.error;
    }
    addresses = reply.addresses;
  }
  const usable = entry.wildcard ? addresses.filter((address) => specialAddressClass(address) === undefined) : addresses;
  if (usable.length === 0 && addresses.length > 0) {
    record(state, { ...event, decision: 'denied', reason: `resolves to ${addresses[0]} (${specialAddressClass(addresses[0]!)})`, address: addresses[0]! }, started);
    throw DENIED;
  }
  for (const address of usable) {
    const names = state.resolved.get(address) ?? new Set<string>();
    names.add(host);
    state.resolved.set(address, names);
  }
  record(state, { ...event, decision: 'allowed' }, started);
  return new ResolveAddressStream([...usable]);
}

function checkFamily(family: IpAddressFamily): void {
  if (family !== 'ipv4' && family !== 'ipv6') throw 'not-supported';
}

/** Options a guest may set; kept so getters echo setters. */
class SocketOptions {
  readonly family: IpAddressFamily;
  hopLimit = 64;
  receiveBufferSize = 65536n;
  sendBufferSize = 65536n;

  constructor(family: IpAddressFamily) {
    checkFamily(family);
    this.family = family;
  }
}

function positive(value: bigint | number): void {
  if (value <= 0) throw 'invalid-argument';
}

/** A relayed socket the host closes when the call ends, if the guest did not. */
function track(state: SocketState, close: NetRequest['op'], conn: number): { close(): void } {
  const handle = {
    close: () => {
      state.ctx.openFiles.delete(handle);
      netClient().post({ op: close, conn } as Parameters<ReturnType<typeof netClient>['post']>[0]);
    },
  };
  state.ctx.openFiles.add(handle);
  return handle;
}

function checkSocketLimit(state: SocketState): void {
  if (state.ctx.openFiles.size >= state.ctx.maxOpenFds) throw 'new-socket-limit';
}

class TcpInput extends InputStream {
  private readonly state: SocketState;
  private readonly conn: number;
  constructor(state: SocketState, conn: number) {
    super();
    this.state = state;
    this.conn = conn;
  }
  protected override readChunk(max: number): Uint8Array {
    const reply = callNet<TcpReply>(this.state, { op: 'tcp-read', conn: this.conn, max });
    if (!reply.ok) throw lastOperationFailed(`tcp read: ${reply.error}`);
    if (reply.bytes === null || reply.bytes === undefined) throw STREAM_CLOSED;
    return reply.bytes;
  }
}

class TcpOutput extends OutputStream {
  private readonly state: SocketState;
  private readonly conn: number;
  constructor(state: SocketState, conn: number) {
    super();
    this.state = state;
    this.conn = conn;
  }
  protected override writeBytes(bytes: Uint8Array): void {
    if (bytes.byteLength === 0) return;
    const reply = callNet<TcpReply>(this.state, { op: 'tcp-write', conn: this.conn, bytes: bytes.slice() });
    if (!reply.ok) throw lastOperationFailed(`tcp write: ${reply.error}`);
  }
}

type TcpPhase =
  | { kind: 'unbound' }
  | { kind: 'connect-pending'; state: SocketState; address: string; port: number }
  | { kind: 'connected'; state: SocketState; conn: number; handle: { close(): void }; local: IpSocketAddress; remote: IpSocketAddress }
  | { kind: 'closed' };

export class TcpSocket {
  private readonly opts: SocketOptions;
  private phase: TcpPhase = { kind: 'unbound' };
  private keepAlive = false;
  private keepAliveIdle = 7_200_000_000_000n;
  private keepAliveInt = 75_000_000_000n;
  private keepAliveCnt = 9;

  constructor(family: IpAddressFamily) {
    this.opts = new SocketOptions(family);
  }

  /** No policy grants binding or listening. */
  startBind(_network: Network, _localAddress: unknown): never {
    throw DENIED;
  }
  finishBind(): never {
    throw 'not-in-progress';
  }
  startConnect(network: Network, remoteAddress: IpSocketAddress): void {
    const state = network.state;
    if (state === undefined) throw DENIED;
    if (this.phase.kind !== 'unbound') throw INVALID_STATE;
    if (remoteAddress.tag !== this.opts.family) throw 'invalid-argument';
    const address = addressText({ tag: remoteAddress.tag, val: remoteAddress.val.address } as IpAddress);
    const port = remoteAddress.val.port;
    if (port === 0 || specialAddressClass(address) === 'unspecified') throw 'invalid-argument';
    if (admits(state, address, port) === undefined) {
      record(state, { kind: 'tcp', decision: 'denied', host: address, port, reason: 'not in network.allow' }, performance.now());
      throw DENIED;
    }
    const reserved = reservedEndpointAt(state.options.reserved, address, port);
    if (reserved !== undefined) {
      record(state, { kind: 'tcp', decision: 'denied', host: address, port, reason: reservedReason(reserved) }, performance.now());
      throw DENIED;
    }
    checkSocketLimit(state);
    this.phase = { kind: 'connect-pending', state, address, port };
  }
  finishConnect(): [InputStream, OutputStream] {
    const phase = this.phase;
    if (phase.kind !== 'connect-pending') throw 'not-in-progress';
    const { state, address, port } = phase;
    const started = performance.now();
    const reply = callNet<TcpReply>(state, { op: 'tcp-connect', address, port, timeoutMs: state.options.connectTimeoutMs });
    const event = { kind: 'tcp' as const, host: address, port, address };
    if (!reply.ok || reply.conn === undefined) {
      this.phase = { kind: 'unbound' };
      const error = reply.ok ? 'unknown' : reply.error;
      record(state, { ...event, decision: 'allowed', errorCode: error }, started);
      throw error;
    }
    record(state, { ...event, decision: 'allowed' }, started);
    const conn = reply.conn;
    this.phase = {
      kind: 'connected',
      state,
      conn,
      handle: track(state, 'tcp-close', conn),
      local: socketAddressOf(reply.localAddress || (this.opts.family === 'ipv4' ? '0.0.0.0' : '::'), reply.localPort ?? 0),
      remote: socketAddressOf(address, port),
    };
    return [new TcpInput(state, conn), new TcpOutput(state, conn)];
  }
  startListen(): never {
    throw DENIED;
  }
  finishListen(): never {
    throw 'not-in-progress';
  }
  accept(): never {
    throw INVALID_STATE;
  }
  localAddress(): IpSocketAddress {
    if (this.phase.kind !== 'connected') throw INVALID_STATE;
    return this.phase.local;
  }
  remoteAddress(): IpSocketAddress {
    if (this.phase.kind !== 'connected') throw INVALID_STATE;
    return this.phase.remote;
  }
  isListening(): boolean {
    return false;
  }
  addressFamily(): IpAddressFamily {
    return this.opts.family;
  }
  setListenBacklogSize(value: bigint): void {
    positive(value);
  }
  keepAliveEnabled(): boolean {
    return this.keepAlive;
  }
  setKeepAliveEnabled(value: boolean): void {
    this.keepAlive = value;
  }
  keepAliveIdleTime(): bigint {
    return this.keepAliveIdle;
  }
  setKeepAliveIdleTime(value: bigint): void {
    positive(value);
    this.keepAliveIdle = value;
  }
  keepAliveInterval(): bigint {
    return this.keepAliveInt;
  }
  setKeepAliveInterval(value: bigint): void {
    positive(value);
    this.keepAliveInt = value;
  }
  keepAliveCount(): number {
    return this.keepAliveCnt;
  }
  setKeepAliveCount(value: number): void {
    positive(value);
    this.keepAliveCnt = value;
  }
  hopLimit(): number {
    return this.opts.hopLimit;
  }
  setHopLimit(value: number): void {
    positive(value);
    this.opts.hopLimit = value;
  }
  receiveBufferSize(): bigint {
    return this.opts.receiveBufferSize;
  }
  setReceiveBufferSize(value: bigint): void {
    positive(value);
    this.opts.receiveBufferSize = value;
  }
  sendBufferSize(): bigint {
    return this.opts.sendBufferSize;
  }
  setSendBufferSize(value: bigint): void {
    positive(value);
    this.opts.sendBufferSize = value;
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
  shutdown(how: 'receive' | 'send' | 'both'): void {
    const phase = this.phase;
    if (phase.kind !== 'connected') throw INVALID_STATE;
    const reply = callNet<TcpReply>(phase.state, { op: 'tcp-shutdown', conn: phase.conn, how });
    if (!reply.ok) throw reply.error;
  }
  [Symbol.dispose](): void {
    if (this.phase.kind === 'connected') this.phase.handle.close();
    this.phase = { kind: 'closed' };
  }
}

interface Datagram {
  data: Uint8Array;
  remoteAddress: IpSocketAddress;
}

interface OutgoingDatagram {
  data: Uint8Array;
  remoteAddress: IpSocketAddress | undefined;
}

/** A bound UDP socket: its relay number and the remote it was streamed to, if any. */
interface UdpBinding {
  state: SocketState;
  conn: number;
  handle: { close(): void };
  local: IpSocketAddress;
  remote: { address: string; port: number } | undefined;
}

function datagramTarget(address: IpSocketAddress): { address: string; port: number } {
  return { address: addressText({ tag: address.tag, val: address.val.address } as IpAddress), port: address.val.port };
}

export class IncomingDatagramStream {
  private readonly binding: UdpBinding | undefined;
  constructor(binding?: UdpBinding) {
    this.binding = binding;
  }
  /** Blocks for at least one datagram from a destination this call may reach; others are dropped. */
  receive(maxResults: bigint): Datagram[] {
    const binding = this.binding;
    if (binding === undefined) throw DENIED;
    if (maxResults === 0n) return [];
    for (;;) {
      const reply = callNet<UdpReply>(binding.state, { op: 'udp-receive', conn: binding.conn, max: Number(maxResults > 64n ? 64n : maxResults) });
      if (!reply.ok) throw reply.error;
      const admitted = (reply.datagrams ?? []).filter(({ address, port }) =>
        binding.remote !== undefined ? address === binding.remote.address && port === binding.remote.port : admits(binding.state, address, port) !== undefined,
      );
      if (admitted.length > 0) return admitted.map(({ address, port, data }) => ({ data, remoteAddress: socketAddressOf(address, port) }));
    }
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
}

export class OutgoingDatagramStream {
  private readonly binding: UdpBinding | undefined;
  private readonly reported = new Set<string>();
  constructor(binding?: UdpBinding) {
    this.binding = binding;
  }
  checkSend(): bigint {
    if (this.binding === undefined) throw DENIED;
    return 64n;
  }
  send(datagrams: OutgoingDatagram[]): bigint {
    const binding = this.binding;
    if (binding === undefined) throw DENIED;
    let sent = 0n;
    for (const datagram of datagrams) {
      const target = datagram.remoteAddress === undefined ? binding.remote : datagramTarget(datagram.remoteAddress);
      if (target === undefined) throw 'invalid-argument';
      if (binding.remote !== undefined && datagram.remoteAddress !== undefined && (target.address !== binding.remote.address || target.port !== binding.remote.port)) throw 'invalid-argument';
      const key = `${target.address}:${target.port}`;
      if (admits(binding.state, target.address, target.port) === undefined) {
        record(binding.state, { kind: 'udp', decision: 'denied', host: target.address, port: target.port, reason: 'not in network.allow' }, performance.now());
        if (sent > 0n) return sent;
        throw DENIED;
      }
      const reply = callNet<UdpReply>(binding.state, { op: 'udp-send', conn: binding.conn, address: target.address, port: target.port, bytes: datagram.data.slice() });
      if (!this.reported.has(key)) {
        this.reported.add(key);
        record(binding.state, { kind: 'udp', decision: 'allowed', host: target.address, port: target.port, address: target.address, ...(reply.ok ? {} : { errorCode: reply.error }) }, performance.now());
      }
      if (!reply.ok) {
        if (sent > 0n) return sent;
        throw reply.error;
      }
      sent += 1n;
    }
    return sent;
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
}

export class UdpSocket {
  private readonly opts: SocketOptions;
  private pending: SocketState | undefined;
  private binding: UdpBinding | undefined;

  constructor(family: IpAddressFamily) {
    this.opts = new SocketOptions(family);
  }

  /** Only an ephemeral port on the unspecified address: a UDP socket needs one to send at all. */
  startBind(network: Network, localAddress: IpSocketAddress): void {
    const state = network.state;
    if (state === undefined) throw DENIED;
    if (this.pending !== undefined || this.binding !== undefined) throw INVALID_STATE;
    if (localAddress.tag !== this.opts.family) throw 'invalid-argument';
    const address = addressText({ tag: localAddress.tag, val: localAddress.val.address } as IpAddress);
    if (localAddress.val.port !== 0 || specialAddressClass(address) !== 'unspecified') throw DENIED;
    checkSocketLimit(state);
    this.pending = state;
  }
  finishBind(): void {
    const state = this.pending;
    if (state === undefined) throw 'not-in-progress';
    this.pending = undefined;
    const reply = callNet<UdpReply>(state, { op: 'udp-open', family: this.opts.family === 'ipv6' ? 6 : 4 });
    if (!reply.ok || reply.conn === undefined) throw reply.ok ? 'unknown' : reply.error;
    this.binding = {
      state,
      conn: reply.conn,
      handle: track(state, 'udp-close', reply.conn),
      local: socketAddressOf(reply.localAddress || (this.opts.family === 'ipv4' ? '0.0.0.0' : '::'), reply.localPort ?? 0),
      remote: undefined,
    };
  }
  stream(remoteAddress: IpSocketAddress | undefined): [IncomingDatagramStream, OutgoingDatagramStream] {
    const binding = this.binding;
    if (binding === undefined) throw INVALID_STATE;
    if (remoteAddress === undefined) binding.remote = undefined;
    else {
      const target = datagramTarget(remoteAddress);
      if (admits(binding.state, target.address, target.port) === undefined) {
        record(binding.state, { kind: 'udp', decision: 'denied', host: target.address, port: target.port, reason: 'not in network.allow' }, performance.now());
        throw DENIED;
      }
      binding.remote = target;
    }
    return [new IncomingDatagramStream(binding), new OutgoingDatagramStream(binding)];
  }
  localAddress(): IpSocketAddress {
    if (this.binding === undefined) throw INVALID_STATE;
    return this.binding.local;
  }
  remoteAddress(): IpSocketAddress {
    const remote = this.binding?.remote;
    if (remote === undefined) throw INVALID_STATE;
    return socketAddressOf(remote.address, remote.port);
  }
  addressFamily(): IpAddressFamily {
    return this.opts.family;
  }
  unicastHopLimit(): number {
    return this.opts.hopLimit;
  }
  setUnicastHopLimit(value: number): void {
    positive(value);
    this.opts.hopLimit = value;
  }
  receiveBufferSize(): bigint {
    return this.opts.receiveBufferSize;
  }
  setReceiveBufferSize(value: bigint): void {
    positive(value);
    this.opts.receiveBufferSize = value;
  }
  sendBufferSize(): bigint {
    return this.opts.sendBufferSize;
  }
  setSendBufferSize(value: bigint): void {
    positive(value);
    this.opts.sendBufferSize = value;
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
  [Symbol.dispose](): void {
    this.binding?.handle.close();
    this.binding = undefined;
  }
}

export const networkImports = Object.freeze({ Network });
/** Without a network grant (`createInstanceNetwork` gives the per-call one). */
export const instanceNetworkImports = Object.freeze({ instanceNetwork: (): Network => NO_NETWORK });
export const ipNameLookupImports = Object.freeze({ ResolveAddressStream, resolveAddresses });
export const tcpImports = Object.freeze({ TcpSocket });
export const tcpCreateSocketImports = Object.freeze({ createTcpSocket: (family: IpAddressFamily) => new TcpSocket(family) });
export const udpImports = Object.freeze({ UdpSocket, IncomingDatagramStream, OutgoingDatagramStream });
export const udpCreateSocketImports = Object.freeze({ createUdpSocket: (family: IpAddressFamily) => new UdpSocket(family) });

/** `wasi:sockets/instance-network` for one call: its network resource carries the call's grant. */
export function createInstanceNetwork(ctx: CallContext, options: NetworkCallOptions, log: NetworkEventLog): { instanceNetwork: () => Network } {
  if (options.allow.length === 0) return instanceNetworkImports;
  const network = new Network({ ctx, options, entries: parseAllowList(options.allow), log, resolved: new Map() });
  return { instanceNetwork: () => network };
}
