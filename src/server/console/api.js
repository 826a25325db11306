// The console's HTTP client: same-origin fetch with the bearer token the daemon may require.
// The token is asked for once (on the first 401) and kept in sessionStorage, so it lasts as long as
// the tab and never lands in localStorage, cookies or URLs. Either token may be kept: the regular
// one, or the admin token, which the daemon accepts everywhere and which alone opens approvals.
//
// Every request the page makes goes through here and is written to the protocol log (method, URL,
// status, duration, bytes sent and received; never headers or bodies, so never the token). Requests
// carry `X-Toolhost-Client: console`, so the daemon's call history tells the console's calls apart.

export const TOKEN_KEY = 'toolhost.token';

/** What the sign-in dialog says, in plain words: why it asks, and after a token that did not work. */
export const TOKEN_FIRST_ASK =
  'This toolhost was started with a token, so it asks for it before showing anything. It is the value given to --token, the TOOLHOST_TOKEN variable, or "token" in the config file. Paste it here.';
export const TOKEN_REFUSED = 'That token did not work. Check that it is the whole value and try again.';
/** Identity mode (the daemon's 401 names its OAuth metadata): people sign in with their own access token. */
export const TOKEN_IDENTITY_ASK =
  'This toolhost signs people in with OAuth: paste an access token its authorization server issued to you for this toolhost. You will see only the tools your account may use.';

/**
 * Where the admin token is, from the daemon's refusal (`… Send "Authorization: Bearer <admin token>".
 * <where it is>`): the part a person needs, without the HTTP header talk before it.
 * @param {string} refusal
 */
export function whereabouts(refusal) {
  const marker = '<admin token>".';
  const at = refusal.indexOf(marker);
  return (at < 0 ? refusal : refusal.slice(at + marker.length)).trim();
}

/** An HTTP answer that was not 2xx, with the daemon's `{error: {code, message}}` when it sent one. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @typedef {{ id: number, method: string, url: string, status: number | 'failed' | 'open', ms: number, sent: number, received: number | undefined, at: Date }} LogEntry
 *   status 'open' for a stream still being read; received undefined until the body was read.
 */

/** The most recent requests kept in the protocol log. */
export const MAX_LOG_ENTRIES = 200;

/** The byte length of a request body the page sends (strings only: the console sends JSON text). */
function bodyBytes(body) {
  return typeof body === 'string' ? new TextEncoder().encode(body).length : 0;
}

export class ApiClient {
  /**
   * @param {{ askToken: (reason: string) => Promise<string> }} options
   *   askToken shows the token prompt and resolves with what the user typed.
   */
  constructor(options) {
    this.askToken = options.askToken;
    /** @type {Promise<string> | undefined} one prompt shared by every request that got a 401 */
    this.pendingPrompt = undefined;
    /** @type {LogEntry[]} oldest first */
    this.log = [];
    /** @type {Set<(entry: LogEntry) => void>} called when an entry is added or updated */
    this.logListeners = new Set();
    this.logCounter = 0;
  }

  /** Calls `listener` with every protocol-log entry added or updated from now on; returns the unsubscribe. */
  onLog(listener) {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** Records an entry (or its update) and tells the listeners. */
  record(entry) {
    if (!this.log.includes(entry)) {
      this.log.push(entry);
      if (this.log.length > MAX_LOG_ENTRIES) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES);
    }
    for (const listener of this.logListeners) listener(entry);
  }

  /**
   * fetch() with the log entry it makes; `received` is filled in by the caller that reads the body.
   * @returns {Promise<{ response: Response, entry: LogEntry }>}
   */
  async loggedFetch(path, init) {
    const started = performance.now();
    /** @type {LogEntry} */
    const entry = { id: ++this.logCounter, method: (init.method ?? 'GET').toUpperCase(), url: path, status: 'open', ms: 0, sent: bodyBytes(init.body), received: undefined, at: new Date() };
    try {
      const response = await fetch(path, init);
      entry.status = response.status;
      entry.ms = performance.now() - started;
      this.record(entry);
      return { response, entry };
    } catch (error) {
      entry.status = 'failed';
      entry.ms = performance.now() - started;
      this.record(entry);
      throw error;
    }
  }

  get token() {
    return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  }

  /** Forgets the token (the "sign out" button). */
  forgetToken() {
    sessionStorage.removeItem(TOKEN_KEY);
  }

  /** Keeps `token` for this tab (a sign-in with the admin token replaces the regular one). */
  useToken(token) {
    sessionStorage.setItem(TOKEN_KEY, token);
  }

  /**
   * fetch() with `Authorization: Bearer <token>` when one is stored; on 401 asks for the token and
   * tries again, until the daemon accepts it. With `prompt: false` a 401 is returned as it is (the
   * approval routes answer 401 `admin_token_required` to anything but the admin token: that calls
   * for the admin sign-in, not for the token prompt).
   * @param {string} path
   * @param {RequestInit} [init]
   * @param {{ prompt?: boolean }} [options]
   * @returns {Promise<Response>}
   */
  async request(path, init = {}, options = {}) {
    return (await this.requestLogged(path, init, options)).response;
  }

  /** request(), with the protocol-log entry of the answer that was returned (to add the bytes read). */
  async requestLogged(path, init = {}, options = {}) {
    for (;;) {
      const headers = new Headers(init.headers);
      const token = this.token;
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      headers.set('x-toolhost-client', 'console');
      const answer = await this.loggedFetch(path, { ...init, headers });
      const response = answer.response;
      if (response.status !== 401 || options.prompt === false) return answer;
      const refusal = await this.readJson(answer);
      if (token !== undefined && this.token === token) this.forgetToken();
      const identity = typeof refusal?.error?.details?.resource_metadata === 'string';
      await this.promptForToken(token !== undefined ? TOKEN_REFUSED : identity ? TOKEN_IDENTITY_ASK : TOKEN_FIRST_ASK);
    }
  }

  /** Reads a JSON body (undefined when it is not JSON), noting its size in the log entry. */
  async readJson(answer) {
    const text = await answer.response.text().catch(() => '');
    answer.entry.received = new TextEncoder().encode(text).length;
    this.record(answer.entry);
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /** GET or POST JSON; throws ApiError for non-2xx answers. */
  async json(path, init = {}, options = {}) {
    const answer = await this.requestLogged(path, init, options);
    const response = answer.response;
    const body = await this.readJson(answer);
    if (!response.ok) {
      throw new ApiError(response.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `${response.status} ${response.statusText}`);
    }
    return body;
  }

  /** POST a JSON body. */
  post(path, body, options = {}) {
    return this.json(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, options);
  }

  async promptForToken(reason) {
    if (this.pendingPrompt === undefined) {
      this.pendingPrompt = this.askToken(reason).finally(() => {
        this.pendingPrompt = undefined;
      });
    }
    const token = await this.pendingPrompt;
    this.useToken(token);
  }
}
