// Starts the console: the token prompt, the catalog, and the live event stream. A tool added,
// updated or removed by hot reload refreshes the catalog in place, without reloading the page.

import { ApiClient } from './api.js';
import { ApprovalsView } from './approvals.js';
import { Catalog } from './catalog.js';
import { followEvents } from './events.js';
import { h, replaceChildren } from './dom.js';
import { LiveView } from './live.js';

/** @param {string} id */
function byId(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`console page lacks #${id}`);
  return element;
}

/** Shows the token dialog and resolves with the token typed into it. */
function askToken(reason) {
  const dialog = /** @type {HTMLDialogElement} */ (byId('token-dialog'));
  const form = /** @type {HTMLFormElement} */ (byId('token-form'));
  const input = /** @type {HTMLInputElement} */ (byId('token-input'));
  byId('token-reason').textContent = reason;
  input.value = '';
  // Escape would close the dialog and leave every request waiting for a token that never comes.
  dialog.oncancel = (event) => event.preventDefault();
  if (!dialog.open) dialog.showModal();
  input.focus();
  return new Promise((resolve) => {
    const submit = (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (token === '') return;
      form.removeEventListener('submit', submit);
      dialog.close();
      resolve(token);
    };
    form.addEventListener('submit', submit);
  });
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
  const live = new LiveView({ calls: byId('calls-body'), changes: byId('changes'), charts: byId('charts'), status: byId('stream-status') });
  const approvals = new ApprovalsView(api, { section: byId('approvals'), list: byId('approval-list') });

  try {
    await catalog.refresh();
    showSignOut();
  } catch (error) {
    replaceChildren(byId('tool-list'), h('li', { class: 'field-error' }, `Could not list tools: ${error instanceof Error ? error.message : String(error)}`));
    return;
  }
  await approvals.load();
  // Files that failed to load before this page opened (the events stream reports later ones).
  const loadFailures = await api.json('/v1/load-failures').catch(() => undefined);
  for (const failure of loadFailures?.failures ?? []) {
    live.addChange('load_failed', failure.file, `${failure.error} (before this page opened; \`toolhost check\` tells more)`, 'error');
  }

  let refreshing = Promise.resolve();
  const refresh = (changed) => {
    refreshing = refreshing.then(() => catalog.refresh(changed)).catch((error) => console.warn('catalog refresh failed', error));
  };
  followEvents(api, {
    onStatus: (status) => live.setStatus(status),
    onReconnect: () => {
      refresh();
      void approvals.load();
    },
    onEvent: (event) => {
      if (event.type === 'approval_requested' || event.type === 'approval_decided') approvals.handle(event);
      else live.handle(event);
      if (['added', 'updated', 'removed'].includes(event.type)) refresh(event.name);
    },
  });
}

void start();
