/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) at `/.well-known/oauth-protected-resource` and
 * the path-suffixed form for the MCP endpoint, `/.well-known/oauth-protected-resource/mcp` (and for
 * the audience's own path when it has another one): `{resource, authorization_servers: [issuer],
 * scopes_supported, bearer_methods_supported: ["header"]}`. Public: clients read it before they have
 * a token.
 */
import { Hono } from 'hono';
import type { AuthConfig } from './config.ts';
import { PROTECTED_RESOURCE_METADATA_PATH } from './challenge.ts';

export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers: string[];
  scopes_supported: string[];
  bearer_methods_supported: ['header'];
  resource_name: string;
}

export function protectedResourceMetadata(auth: AuthConfig): ProtectedResourceMetadata {
  return {
    resource: auth.audience,
    authorization_servers: [auth.issuer],
    scopes_supported: Object.keys(auth.scopes ?? {}),
    bearer_methods_supported: ['header'],
    resource_name: 'toolhost',
  };
}

/** The metadata paths this server answers. */
export function resourceMetadataPaths(auth: AuthConfig): string[] {
  const audiencePath = new URL(auth.audience).pathname.replace(/\/$/, '');
  const paths = new Set([PROTECTED_RESOURCE_METADATA_PATH, `${PROTECTED_RESOURCE_METADATA_PATH}/mcp`]);
  if (audiencePath !== '') paths.add(`${PROTECTED_RESOURCE_METADATA_PATH}${audiencePath}`);
  return [...paths];
}

export function resourceMetadataRoutes(auth: AuthConfig): Hono {
  const app = new Hono();
  const body = protectedResourceMetadata(auth);
  for (const path of resourceMetadataPaths(auth)) {
    app.get(path, (c) => {
      c.header('Cache-Control', 'max-age=300');
      return c.json(body);
    });
  }
  return app;
}
