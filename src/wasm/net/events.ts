/**
 * What a call did on the network, for the host's events and metrics: one record per outgoing
 * request, allowed or denied. Records name the destination and the outcome; never header values,
 * bodies or paths (a path or query may carry what the guest was asked to keep private).
 */
export type NetworkDecision = 'allowed' | 'denied';

export interface NetworkEvent {
  /** `http`: a wasi:http request; `tcp`/`udp`: a wasi:sockets connect or first datagram; `lookup`: a name lookup. */
  kind: 'http' | 'tcp' | 'udp' | 'lookup';
  decision: NetworkDecision;
  /** HTTP only. */
  method?: string;
  /** HTTP only. */
  scheme?: string;
  host: string;
  /** 0 for a lookup. */
  port: number;
  /** Why it was denied, or the wasi:http error code an allowed request failed with. */
  reason?: string;
  /** The wasi:http error code the guest saw, when the request failed. */
  errorCode?: string;
  /** The address connected to, or the one refused by the private-address guard. */
  address?: string;
  status?: number;
  /** Response body bytes delivered to the guest. */
  responseBytes?: number;
  durationMs: number;
}

/** Records kept per call; later ones are counted in `droppedNetworkEvents` only. */
export const MAX_NETWORK_EVENTS = 256;

export interface NetworkEventLog {
  readonly events: NetworkEvent[];
  dropped: number;
}

/** A call's network record as it leaves the worker (plain data). */
export interface NetworkActivity {
  events: NetworkEvent[];
  /** Requests past `MAX_NETWORK_EVENTS`, not recorded one by one. */
  dropped: number;
}

export function createNetworkEventLog(): NetworkEventLog {
  return { events: [], dropped: 0 };
}

export function recordNetworkEvent(log: NetworkEventLog, event: NetworkEvent): void {
  if (log.events.length < MAX_NETWORK_EVENTS) log.events.push(event);
  else log.dropped += 1;
}
