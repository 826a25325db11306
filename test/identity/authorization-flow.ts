/**
 * The MCP SDK client's OAuth side for the tests: an in-memory `OAuthClientProvider` (dynamic client
 * registration, PKCE verifier, tokens), and the user agent part a browser would play: following the
 * authorization URL through the issuer's login and consent screens (oidc-provider's development
 * interactions) by plain HTTP, with a cookie jar, until the redirect to the client carries the code.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** Where the issuer sends the browser back; never fetched (the test reads the code off the redirect). */
export const REDIRECT_URL = 'http://127.0.0.1:9/oauth/callback';

export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private information: OAuthClientInformationMixed | undefined;
  private stored: OAuthTokens | undefined;
  private verifier = '';

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'toolhost identity test', redirect_uris: [REDIRECT_URL], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.information;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.information = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.stored = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}

/**
 * Plays the browser: opens `authorizationUrl`, logs in as `login` and consents on the issuer's
 * screens, and returns the authorization code of the final redirect to REDIRECT_URL.
 */
export async function authorizeAs(authorizationUrl: URL, login: string): Promise<string> {
  const cookies = new Map<string, string>();
  const remember = (response: Response): void => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  };
  const cookieHeader = (): string => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  let next = authorizationUrl.href;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(next, {
      redirect: 'manual',
      method: form === undefined ? 'GET' : 'POST',
      headers: { cookie: cookieHeader(), ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(form === undefined ? {} : { body: form }),
    });
    remember(response);
    form = undefined;
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get('location') ?? '', next);
      await response.body?.cancel();
      if (location.href.startsWith(REDIRECT_URL)) {
        const code = location.searchParams.get('code');
        if (code === null) throw new Error(`the issuer redirected back without a code: ${location.search}`);
        return code;
      }
      next = location.href;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200 || !new URL(next).pathname.startsWith('/interaction/')) throw new Error(`unexpected answer ${response.status} at ${next}: ${page.slice(0, 500)}`);
    // The development login screen has a login field; the consent screen does not.
    form = /name="login"/.test(page) ? new URLSearchParams({ prompt: 'login', login, password: 'any' }) : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the authorization did not finish in 20 steps');
}
