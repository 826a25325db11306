// The console's HTTP client: same-origin fetch with the bearer token the daemon may require.
// The token is asked for once (on the first 401) and kept in sessionStorage, so it lasts as long as
// the tab and never lands in localStorage, cookies or URLs. Either token may be kept: the regular
// one, or the admin token, which the daemon accepts everywhere and which alone opens approvals.

export const TOKEN_KEY = 'toolhost.token';

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

export class ApiClient {
  /**
   * @param {{ askToken: (reason: string) => Promise<string> }} options
   *   askToken shows the token prompt and resolves with what the user typed.
   */
  constructor(options) {
    this.askToken = options.askToken;
    /** @type {Promise<string> | undefined} one prompt shared by every request that got a 401 */
    this.pendingPrompt = undefined;
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
    for (;;) {
      const headers = new Headers(init.headers);
      const token = this.token;
      if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
      const response = await fetch(path, { ...init, headers });
      if (response.status !== 401 || options.prompt === false) return response;
      const body = await response.json().catch(() => undefined);
      if (token !== undefined && this.token === token) this.forgetToken();
      await this.promptForToken(body?.error?.message ?? 'This daemon needs a token.');
    }
  }

  /** GET or POST JSON; throws ApiError for non-2xx answers. */
  async json(path, init = {}, options = {}) {
    const response = await this.request(path, init, options);
    const body = await response.json().catch(() => undefined);
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
