/**
 * wasi:sockets/network, instance-network, ip-name-lookup, tcp, tcp-create-socket, udp,
 * udp-create-socket (0.2.0–0.2.3): present so components that import them load, but no network is
 * reachable. Sockets can be created and configured (so a guest reaches its connect/bind and gets a
 * clear error), and every operation that would touch the network fails with `access-denied`.
 * Real networking for `networkAllow` hosts is not implemented.
 */
import { READY_POLLABLE, type Pollable } from './io-poll.ts';

type IpAddressFamily = 'ipv4' | 'ipv6';

const DENIED = 'access-denied';
const INVALID_STATE = 'invalid-state';

export class Network {}

const NETWORK = new Network();

export class ResolveAddressStream {
  resolveNextAddress(): never {
    throw DENIED;
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
}

function checkFamily(family: IpAddressFamily): void {
  if (family !== 'ipv4' && family !== 'ipv6') throw 'not-supported';
}

/** Options a guest may set before it tries to connect; kept so getters echo setters. */
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

export class TcpSocket {
  private readonly opts: SocketOptions;
  private keepAlive = false;
  private keepAliveIdle = 7_200_000_000_000n;
  private keepAliveInt = 75_000_000_000n;
  private keepAliveCnt = 9;

  constructor(family: IpAddressFamily) {
    this.opts = new SocketOptions(family);
  }

  startBind(_network: Network, _localAddress: unknown): never {
    throw DENIED;
  }
  finishBind(): never {
    throw 'not-in-progress';
  }
  startConnect(_network: Network, _remoteAddress: unknown): never {
    throw DENIED;
  }
  finishConnect(): never {
    throw 'not-in-progress';
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
  localAddress(): never {
    throw INVALID_STATE;
  }
  remoteAddress(): never {
    throw INVALID_STATE;
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
  shutdown(_how: string): never {
    throw INVALID_STATE;
  }
}

export class IncomingDatagramStream {
  receive(_maxResults: bigint): never {
    throw DENIED;
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
}

export class OutgoingDatagramStream {
  checkSend(): never {
    throw DENIED;
  }
  send(_datagrams: unknown[]): never {
    throw DENIED;
  }
  subscribe(): Pollable {
    return READY_POLLABLE;
  }
}

export class UdpSocket {
  private readonly opts: SocketOptions;

  constructor(family: IpAddressFamily) {
    this.opts = new SocketOptions(family);
  }

  startBind(_network: Network, _localAddress: unknown): never {
    throw DENIED;
  }
  finishBind(): never {
    throw 'not-in-progress';
  }
  stream(_remoteAddress: unknown): never {
    throw INVALID_STATE;
  }
  localAddress(): never {
    throw INVALID_STATE;
  }
  remoteAddress(): never {
    throw INVALID_STATE;
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
}

export const networkImports = Object.freeze({ Network });
export const instanceNetworkImports = Object.freeze({ instanceNetwork: (): Network => NETWORK });
export const ipNameLookupImports = Object.freeze({
  ResolveAddressStream,
  resolveAddresses: (_network: Network, _name: string): never => {
    throw DENIED;
  },
});
export const tcpImports = Object.freeze({ TcpSocket });
export const tcpCreateSocketImports = Object.freeze({ createTcpSocket: (family: IpAddressFamily) => new TcpSocket(family) });
export const udpImports = Object.freeze({ UdpSocket, IncomingDatagramStream, OutgoingDatagramStream });
export const udpCreateSocketImports = Object.freeze({ createUdpSocket: (family: IpAddressFamily) => new UdpSocket(family) });

