/**
 * What a principal's event stream (`GET /v1/events`) carries in identity mode: its own calls
 * (`call_finished`, `network_denied` with its subject), its own approvals (requested by it, and their
 * decisions), and tool set changes for tools it may see. Approvers and the admin token see
 * everything, as before; so does a stream outside identity mode.
 */
import type { Host, HostEvent } from '../host-types.ts';
import { isApprover } from './approver-guard.ts';
import { lookupFor } from './host-policy.ts';
import type { Principal } from './principal.ts';

/** Most approval ids one stream remembers as its own. */
const MAX_OWN_APPROVALS = 1000;

/** The stream's filter for `principal`; undefined when it sees every event. */
export function eventFilterFor(host: Host, principal: Principal | undefined): ((event: HostEvent) => boolean) | undefined {
  if (principal === undefined || isApprover(host, principal)) return undefined;
  const subject = principal.subject;
  const ownApprovals = new Set<string>();
  return (event) => {
    switch (event.type) {
      case 'call_finished':
      case 'network_denied':
        return event.subject === subject;
      case 'approval_requested':
        if (event.requested_by !== subject) return false;
        ownApprovals.add(event.id);
        if (ownApprovals.size > MAX_OWN_APPROVALS) ownApprovals.delete(ownApprovals.values().next().value as string);
        return true;
      case 'approval_decided':
        return ownApprovals.delete(event.id);
      case 'added':
      case 'updated':
        return lookupFor(host, event.name, principal).found;
      case 'removed':
        return true;
      default:
        // load failures and collisions name the host's files: for those who run it.
        return false;
    }
  };
}
