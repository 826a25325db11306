/**
 * A real OpenID provider on loopback for the identity tests: `oidc-provider` (v9) with resource
 * indicators on (RFC 8707), so every access token is a JWT signed with the issuer's RS256 key for the
 * resource it was asked for; the client credentials grant for machine clients; dynamic client
 * registration and its development login screens for the authorization code flow with PKCE.
 * Users of the code flow log in as any name (the dev interactions accept any login).
 * `groups` is added to each token from `groupsOf(subject)`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';

/** A key `SignJWT.sign` takes. */
export type SigningKey = Parameters<SignJWT['sign']>[0];

export interface TestIssuer {
  /** The issuer identifier, `http://127.0.0.1:<port>`. */
  issuer: string;
  /** The issuer's signing key (private JWK) and its key id: tests mint hand-made tokens with it. */
  privateKey: SigningKey;
  kid: string;
  /** A client credentials token for `clientId` (scope, resource as given). */
  clientToken(clientId: string, options?: { scope?: string; resource?: string }): Promise<string>;
  close(): Promise<void>;
}

export interface TestClient {
  client_id: string;
  /** Scopes the client may ask for (space-separated). */
  scope: string;
}

export const CLIENT_SECRET = 'identity-test-client-secret-0123456789abcdef';

export async function startIssuer(options: { clients: readonly TestClient[]; scopes: readonly string[]; groupsOf?: (subject: string) => string[] | undefined }): Promise<TestIssuer> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'identity-test-key';
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.client_id,
      client_secret: CLIENT_SECRET,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: client.scope,
    })),
    jwks: { keys: [jwk] },
    ttl: { AccessToken: 300, ClientCredentials: 300, AuthorizationCode: 60, IdToken: 300, RefreshToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
    scopes: ['openid', 'offline_access', ...options.scopes],
    features: {
      clientCredentials: { enabled: true },
      registration: { enabled: true },
      devInteractions: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // The code flow asks for the resource at the authorization request; the token request repeats it.
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0] ?? undefined,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resourceIndicator: string) => {
          if (!/^https?:\/\//.test(resourceIndicator)) throw new errors.InvalidTarget();
          return { scope: options.scopes.join(' '), audience: resourceIndicator, accessTokenTTL: 300, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } };
        },
      },
    },
    formats: {
      customizers: {
        jwt: (_ctx: unknown, _token: unknown, jwt: { payload: Record<string, unknown> }) => {
          const groups = options.groupsOf?.(String(jwt.payload['sub']));
          if (groups !== undefined) jwt.payload['groups'] = groups;
        },
      },
    },
    // Consent for the requested scopes and resource is given on the dev consent screen.
    loadExistingGrant: undefined,
  } as never);
  provider.on('server_error', (_ctx: unknown, error: Error) => process.stderr.write(`oidc-provider server_error: ${error.stack ?? error.message}\n`));
  server.on('request', provider.callback());
  return {
    issuer,
    privateKey,
    kid,
    async clientToken(clientId, tokenOptions = {}) {
      const body = new URLSearchParams({ grant_type: 'client_credentials' });
      if (tokenOptions.scope !== undefined) body.set('scope', tokenOptions.scope);
      if (tokenOptions.resource !== undefined) body.set('resource', tokenOptions.resource);
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${CLIENT_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      const answer = (await response.json()) as { access_token?: string; error?: string; error_description?: string };
      if (answer.access_token === undefined) throw new Error(`token request failed: ${response.status} ${JSON.stringify(answer)}`);
      return answer.access_token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
