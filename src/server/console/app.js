// Starts the console: the token prompt, the catalog, the live event stream, the daemon's recent
// calls (admin token), the approval rules and quotas, and the protocol log of the page's requests. A
// tool added, updated or removed by hot reload refreshes the catalog in place, without reloading the
// page. The header says which token the tab uses (none, the regular token, or the admin token, which
// alone decides approvals and opens calls) and offers the admin sign-in. Everything the dialogs say is
// in plain words; the daemon's own messages are shown only where they tell where a token is.

import { ApiClient, whereabouts } from './api.js';
import { ApprovalsView } from './approvals.js';
import { CallDetailView } from './call-detail.js';
import { Catalog } from './catalog.js';
import { followEvents } from './events.js';
import { h, replaceChildren } from './dom.js';
import { GatesView } from './gates.js';
import { SchedulesView } from './schedules.js';
import { LiveView } from './live.js';
import { ProtocolLogView } from './protocol-log.js';

/** @param {string} id */
function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`console page lacks #${id}`);
  return element;
}

/**
 * Shows the token dialog and resolves with the token typed into it, or undefined when a
 * `cancellable` dialog (the optional admin sign-in) is cancelled.
 * @param {string} reason
 * @param {{ title?: string, cancellable?: boolean }} [options]
 * @returns {Promise<string | undefined>}
 */
function askToken(reason, options = {}) {
  const dialog = /** @type {HTMLDialogElement} */ (byId('token-dialog'));
  const form = /** @type {HTMLFormElement} */ (byId('token-form'));
  const input = /** @type {HTMLInputElement} */ (byId('token-input'));
  const cancel = byId('token-cancel');
  byId('token-title').textContent = options.title ?? 'Sign in';
  byId('token-reason').textContent = reason;
  cancel.hidden = options.cancellable !== true;
  input.value = '';
  if (!dialog.open) dialog.showModal();
  input.focus();
  return new Promise((resolve) => {
    const finish = (token) => {
      form.removeEventListener('submit', submit);
      cancel.onclick = null;
      dialog.oncancel = (event) => event.preventDefault();
      dialog.close();
      resolve(token);
    };
    const submit = (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (token === '') return;
      finish(token);
    };
    form.addEventListener('submit', submit);
    // Escape would close a required prompt and leave every request waiting for a token that never comes.
    dialog.oncancel = (event) => {
      event.preventDefault();
      if (options.cancellable === true) finish(undefined);
    };
    cancel.onclick = () => finish(undefined);
  });
}

const AUTH_LABELS = { admin: 'admin token', token: 'token (not admin)', none: 'no token' };

/**
 * Asks for the admin token until the daemon takes it for GET /v1/approvals (or the person cancels),
 * keeps it for the tab and reloads, so the event stream reopens with it.
 * @param {import('./api.js').ApiClient} api
 * @param {string} reason what the daemon said about where the token is
 */
async function signInAsAdmin(api, reason) {
  const where = whereabouts(reason);
  let why = `Opening calls, reading the approval rules and deciding approvals need the admin token: a second token toolhost makes for people, which tools never get. ${where}`;
  for (;;) {
    const token = await askToken(why, { title: 'Admin token', cancellable: true });
    if (token === undefined) return;
    const answer = await api.loggedFetch('/v1/approvals', { headers: { authorization: `Bearer ${token}`, 'x-toolhost-client': 'console' } });
    await api.readJson(answer);
    if (answer.response.ok) {
      api.useToken(token);
      location.reload();
      return;
    }
    why = `That is not the admin token. ${where}`;
  }
}

async function start() {
  const api = new ApiClient({ askToken });
  const signOut = byId('sign-out');
  const showSignOut = () => (signOut.hidden = api.token === undefined);
  signOut.addEventListener('click', () => {
    api.forgetToken();
    location.reload();
  });

  const catalog = new Catalog(api, {
    list: byId('tool-list'),
    count: byId('tool-count'),
    detail: byId('tool-detail'),
    search: /** @type {HTMLInputElement} */ (byId('search')),
    source: /** @type {HTMLSelectElement} */ (byId('filter-source')),
    permission: /** @type {HTMLSelectElement} */ (byId('filter-permission')),
    network: /** @type {HTMLInputElement} */ (byId('filter-network')),
  });
  new ProtocolLogView(api, {
    panel: /** @type {HTMLDetailsElement} */ (byId('protocol-log')),
    body: byId('protocol-body'),
    count: byId('protocol-count'),
    clear: byId('protocol-clear'),
  });
  const approvals = new ApprovalsView(api, { section: byId('approvals'), list: byId('approval-list'), locked: byId('approvals-locked'), lockedText: byId('approvals-locked-text') });
  const startAdminSignIn = () => void signInAsAdmin(api, approvals.refusal || '');
  const callDetail = new CallDetailView(
    api,
    { dialog: /** @type {HTMLDialogElement} */ (byId('call-dialog')), title: byId('call-title'), body: byId('call-body'), close: byId('call-close') },
    startAdminSignIn,
  );
  const live = new LiveView({ calls: byId('calls-body'), changes: byId('changes'), charts: byId('charts'), status: byId('stream-status') }, (callId, tool) => void callDetail.open(callId, tool));
  const gates = new GatesView(api, { panel: /** @type {HTMLDetailsElement} */ (byId('gates')), rules: byId('gates-rules'), quotas: byId('gates-quotas') });
  const schedules = new SchedulesView(api, { panel: /** @type {HTMLDetailsElement} */ (byId('schedules')), body: byId('schedules-body') });
  const authKind = byId('auth-kind');
  const adminSignIn = byId('admin-sign-in');
  /** @type {{ identity: boolean, subject?: string, permission_mode?: string } | undefined} identity mode: who the token stands for */
  let me;
  const showAuth = () => {
    const kind = approvals.admin ? 'admin' : api.token !== undefined ? 'token' : 'none';
    authKind.dataset.kind = kind;
    authKind.textContent = AUTH_LABELS[kind];
    // Identity mode: the signed-in principal (the token's subject) and the most it may do here.
    if (me?.identity === true && me.subject !== undefined && me.subject !== 'admin-token') {
      authKind.dataset.kind = 'principal';
      authKind.textContent = `signed in as ${me.subject} (${me.permission_mode ?? 'none'})`;
    }
    adminSignIn.hidden = approvals.admin;
    showSignOut();
  };
  adminSignIn.addEventListener('click', startAdminSignIn);
  byId('approvals-sign-in').addEventListener('click', startAdminSignIn);

  try {
    await catalog.refresh();
    showSignOut();
  } catch (error) {
    replaceChildren(byId('tool-list'), h('li', { class: 'field-error' }, `Could not list tools: ${error instanceof Error ? error.message : String(error)}`));
    return;
  }
  me = await api.json('/v1/whoami', {}, { prompt: false }).catch(() => undefined);
  await approvals.load();
  showAuth();
  // The daemon's recent calls, made before this page opened (by any client): the admin token's to read.
  byId('history-note').hidden = approvals.admin;
  if (approvals.admin) {
    const history = await api.json('/v1/calls', {}, { prompt: false }).catch((error) => console.warn('call history', error));
    if (history !== undefined) live.addHistory(history.calls);
  }
  // Files that failed to load before this page opened (the events stream reports later ones).
  const loadFailures = await api.json('/v1/load-failures').catch(() => undefined);
  for (const failure of loadFailures?.failures ?? []) {
    live.addChange('load_failed', failure.file, `${failure.error} (before this page opened; \`toolhost check\` tells more)`, 'error');
  }

  await schedules.load();

  let refreshing = Promise.resolve();
  const refresh = (changed) => {
    refreshing = refreshing.then(() => catalog.refresh(changed)).catch((error) => console.warn('catalog refresh failed', error));
  };
  followEvents(api, {
    onStatus: (status) => live.setStatus(status),
    onReconnect: () => {
      refresh();
      void approvals.load().then(showAuth);
    },
    onEvent: (event) => {
      if (event.type === 'approval_requested' || event.type === 'approval_decided') approvals.handle(event);
      else live.handle(event);
      if (event.type === 'call_finished') {
        gates.callFinished();
        schedules.changed();
      }
      if (['added', 'updated', 'removed'].includes(event.type)) refresh(event.name);
    },
  });
}

void start();
