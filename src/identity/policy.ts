/**
 * Per-principal policy: what a signed-in principal may see and do, from the config's `auth.scopes`
 * (what the authorization server granted) and `principals` rules (what this host allows).
 *
 * For a principal of kind `token` (a validated access token):
 * 1. `principals` rules are tried in order; the first whose every `match` field holds wins. When
 *    rules are configured and none matches, the principal is DENIED: it sees no tool and every call
 *    is refused (`reason: "principal_denied"`). Without rules every principal passes this step.
 * 2. With `auth.scopes`, the token's level is the highest level among its mapped scopes; a token
 *    with no mapped scope is DENIED. Without `auth.scopes` the token gets the host's permission mode.
 * 3. The permission level is the lowest of: the host's permission mode, the scope level (step 2) and
 *    the winning rule's `permission_mode`. Scopes are a ceiling a rule narrows, never widens.
 * 4. The rule's `include` / `exclude` globs narrow the tools further (the registry's own apply first).
 * 5. `approver: true` on the winning rule lets the principal list and decide approvals.
 * 6. The rule's `approvals` are tried before the host's approval rules for the principal's calls
 *    (first match wins over both lists); its `quotas` apply on top of the host's quotas, with one
 *    budget per principal (subject) the rule matches, in this process's memory.
 * Other principals (the admin token, the CLI's local user, schedules) are not restricted here: the
 * host's own permission mode and include/exclude apply to them as before.
 */
import picomatch from 'picomatch';
import { ApprovalRules } from '../approvals/rules.ts';
import { QuotaGate } from '../quotas/index.ts';
import { isPermitted, permissionRank, type PermissionLevel } from '../permission.ts';
import type { PrincipalMatch, PrincipalRule } from './config.ts';
import type { Principal } from './principal.ts';

/** What one principal may do. */
export interface Grant {
  /** False: the principal sees nothing and may call nothing (`denied` says why). */
  readonly allowed: boolean;
  readonly denied?: string | undefined;
  /** The highest permission level a tool may need for this principal. */
  readonly permissionMode: PermissionLevel;
  /** True when the token's scopes, not the host or a rule, set `permissionMode` (a wider scope would give more). */
  readonly scopeLimited: boolean;
  /** False when the principal's rule hides the tool by name (include/exclude). */
  exposes(name: string): boolean;
  /** May list and decide approvals. */
  readonly approver: boolean;
  /** 1-based position of the winning `principals` rule, if any. */
  readonly rule?: number | undefined;
  /** The rule's approval rules (tried before the host's). */
  readonly approvalRules?: ApprovalRules | undefined;
  /** This principal's own quotas under the rule. */
  readonly quotas?: QuotaGate | undefined;
}

export interface PrincipalPolicy {
  /** The grant of `principal`; undefined when policy does not restrict it (no principal, not a token). */
  grantFor(principal: Principal | undefined): Grant | undefined;
  /** Scopes whose mapping gives at least `level` (for an `insufficient_scope` challenge). */
  scopesGranting(level: PermissionLevel): string[];
  /** Refuses what waits for a per-principal quota slot (host shutdown). */
  close(): void;
}

export interface PrincipalPolicyOptions {
  /** The host's permission mode: no principal gets more. */
  hostMode: PermissionLevel;
  /** `auth.scopes`. */
  scopes?: Readonly<Record<string, PermissionLevel>> | undefined;
  /** `principals`. */
  rules?: readonly PrincipalRule[] | undefined;
}

interface CompiledRule {
  rule: PrincipalRule;
  position: number;
  exposes: (name: string) => boolean;
  approvalRules: ApprovalRules | undefined;
}

/** Most per-principal quota budgets kept at once; the oldest is dropped beyond it. */
const MAX_PRINCIPAL_QUOTAS = 10_000;

const EVERYTHING = (): boolean => true;
const NOTHING = (): boolean => false;

function lower(left: PermissionLevel, right: PermissionLevel): PermissionLevel {
  return permissionRank(right) < permissionRank(left) ? right : left;
}

function compile(rule: PrincipalRule, position: number): CompiledRule {
  const include = rule.include ?? [];
  const exclude = rule.exclude ?? [];
  const isIncluded = include.length > 0 ? picomatch([...include]) : EVERYTHING;
  const isExcluded = exclude.length > 0 ? picomatch([...exclude]) : NOTHING;
  const approvalRules = rule.approvals !== undefined && rule.approvals.length > 0 ? new ApprovalRules(rule.approvals) : undefined;
  return { rule, position, exposes: (name) => isIncluded(name) && !isExcluded(name), approvalRules };
}

/** True when every field `match` names holds for `principal`. */
export function principalMatches(match: PrincipalMatch, principal: Principal): boolean {
  if (match.subject !== undefined && match.subject !== principal.subject) return false;
  if (match.client_id !== undefined && match.client_id !== principal.clientId) return false;
  if (match.scope !== undefined && !principal.scopes.includes(match.scope)) return false;
  if (match.group !== undefined && !(principal.groups ?? []).includes(match.group)) return false;
  return true;
}

function deniedGrant(why: string): Grant {
  return { allowed: false, denied: why, permissionMode: 'none', scopeLimited: false, exposes: NOTHING, approver: false };
}

export function createPrincipalPolicy(options: PrincipalPolicyOptions): PrincipalPolicy {
  const rules = options.rules?.map((rule, index) => compile(rule, index + 1));
  const scopes = options.scopes;
  /** Per principal and rule: `<rule position>\u0000<subject>` → its quota gate. */
  const quotaGates = new Map<string, QuotaGate>();
  const quotasOf = (winner: CompiledRule, subject: string): QuotaGate | undefined => {
    const config = winner.rule.quotas;
    if (config === undefined || Object.keys(config).length === 0) return undefined;
    const key = `${winner.position}\u0000${subject}`;
    let gate = quotaGates.get(key);
    if (gate === undefined) {
      gate = new QuotaGate(config);
      quotaGates.set(key, gate);
      if (quotaGates.size > MAX_PRINCIPAL_QUOTAS) {
        const [oldestKey, oldest] = quotaGates.entries().next().value as [string, QuotaGate];
        quotaGates.delete(oldestKey);
        oldest.close();
      }
    }
    return gate;
  };
  return {
    grantFor(principal) {
      if (principal === undefined || principal.kind !== 'token') return undefined;
      let winner: CompiledRule | undefined;
      if (rules !== undefined) {
        winner = rules.find((candidate) => principalMatches(candidate.rule.match, principal));
        if (winner === undefined) return deniedGrant(`no rule of the host's "principals" policy matches "${principal.subject}"`);
      }
      let level = options.hostMode;
      let scopeLimited = false;
      if (scopes !== undefined) {
        const mapped = principal.scopes.map((scope) => scopes[scope]).filter((value): value is PermissionLevel => value !== undefined);
        if (mapped.length === 0) return deniedGrant(`the token carries none of the scopes this host maps (auth.scopes: ${Object.keys(scopes).join(', ')})`);
        const scopeLevel = mapped.reduce((best, value) => (permissionRank(value) > permissionRank(best) ? value : best));
        scopeLimited = permissionRank(scopeLevel) < permissionRank(level);
        level = lower(level, scopeLevel);
      }
      if (winner?.rule.permission_mode !== undefined && permissionRank(winner.rule.permission_mode) < permissionRank(level)) {
        level = winner.rule.permission_mode;
        scopeLimited = false;
      }
      return {
        allowed: true,
        permissionMode: level,
        scopeLimited,
        exposes: winner?.exposes ?? EVERYTHING,
        approver: winner?.rule.approver === true,
        rule: winner?.position,
        approvalRules: winner?.approvalRules,
        quotas: winner === undefined ? undefined : quotasOf(winner, principal.subject),
      };
    },
    close() {
      for (const gate of quotaGates.values()) gate.close();
      quotaGates.clear();
    },
    scopesGranting(level) {
      return Object.entries(scopes ?? {})
        .filter(([, mapped]) => isPermitted(level, mapped) && isPermitted(level, options.hostMode))
        .map(([scope]) => scope);
    },
  };
}
