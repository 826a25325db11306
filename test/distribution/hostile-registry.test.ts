/**
 * The OCI client against registries that lie, written as an attacker would: a real HTTP server on
 * loopback that announces one digest and sends other bytes, sends a manifest that is not the one
 * asked for, streams an endless manifest, redirects to another host, or asks for credentials.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRegistryClient, sha256Digest } from '../../src/distribution/oci/client.ts';
import { defaultCredentialSource } from '../../src/distribution/oci/credentials.ts';
import { OciError, type OciReference } from '../../src/distribution/registry-types.ts';
import { packTool } from '../../src/distribution/oci/artifact.ts';
import { readFileSync } from 'node:fs';
import { PROJECT_ROOT, temporaryDirectory } from '../cli/run-cli.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function listen(handler: Handler, host = '127.0.0.1'): Promise<{ server: Server; address: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as { port: number }).port;
  return { server, address: `${host}:${port}` };
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

async function refusal(promise: Promise<unknown>): Promise<OciError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OciError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const wasm = readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'build', 'ext-greet.wasm'));
const packed = packTool('greet', { wasm, sidecars: { policy: new TextEncoder().encode('{}') } });
const manifestBytes = new TextEncoder().encode(JSON.stringify(packed.manifest));
const manifestDigest = sha256Digest(manifestBytes);

describe('the OCI client refuses what a hostile registry sends', { timeout: 60_000 }, () => {
  let handler: Handler = (_request, response) => response.writeHead(404).end();
  let registry: { server: Server; address: string };
  let other: { server: Server; address: string };
  let otherHits = 0;
  let ref: OciReference;

  beforeAll(async () => {
    registry = await listen((request, response) => handler(request, response));
    other = await listen((_request, response) => {
      otherHits++;
      response.writeHead(200).end(manifestBytes);
    }, '127.0.0.2');
    ref = { registry: registry.address, repository: 'tools/greet', tag: '1' };
  });
  afterAll(async () => {
    await close(registry.server);
    await close(other.server);
  });
  afterEach(() => {
    handler = (_request, response) => response.writeHead(404).end();
    otherHits = 0;
  });

  it('reads an honest manifest (the baseline the other cases change one thing of)', async () => {
    handler = (_request, response) => response.writeHead(200, { 'content-type': packed.manifest.mediaType, 'docker-content-digest': manifestDigest }).end(manifestBytes);
    const fetched = await createRegistryClient().getManifest(ref);
    expect(fetched.digest).toBe(manifestDigest);
    expect(fetched.manifest.layers[0]?.mediaType).toBe('application/wasm');
  });

  it('a registry that announces one digest and sends other bytes', async () => {
    const other = JSON.stringify({ ...packed.manifest, annotations: { evil: 'yes' } });
    handler = (_request, response) => response.writeHead(200, { 'docker-content-digest': manifestDigest }).end(other);
    const error = await refusal(createRegistryClient().getManifest(ref));
    expect(error.code).toBe('digest_mismatch');
    expect(error.message).toContain(manifestDigest);
  });

  it('a manifest asked for by digest that hashes to something else (no header to compare)', async () => {
    handler = (_request, response) => response.writeHead(200).end(JSON.stringify({ ...packed.manifest, annotations: { swapped: '1' } }));
    const error = await refusal(createRegistryClient().getManifest({ ...ref, digest: manifestDigest }));
    expect(error.code).toBe('digest_mismatch');
  });

  it('a blob whose bytes are not its digest', async () => {
    handler = (_request, response) => response.writeHead(200).end(Buffer.concat([wasm, Buffer.from('x')]));
    const error = await refusal(createRegistryClient().getBlob(ref, sha256Digest(wasm)));
    expect(error.code).toBe('digest_mismatch');
  });

  it('a huge manifest: refused by its Content-Length before reading, and while streaming without one', async () => {
    handler = (_request, response) => response.writeHead(200, { 'content-length': String(64 * 1024 * 1024) }).end();
    expect((await refusal(createRegistryClient().getManifest(ref))).code).toBe('too_large');
    let sent = 0;
    handler = (_request, response) => {
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (sent < 1024 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
        if (sent < 1024 * 1024 * 1024) response.once('drain', pump);
      };
      response.on('close', () => response.removeAllListeners('drain'));
      pump();
    };
    const error = await refusal(createRegistryClient({ maxManifestBytes: 1024 * 1024 }).getManifest(ref));
    expect(error.code).toBe('too_large');
    // It stopped reading soon after the cap, not at the end of the gigabyte.
    expect(sent).toBeLessThan(512 * 1024 * 1024);
  });

  it('a manifest with too many layers, or an index instead of a manifest', async () => {
    const layers = Array.from({ length: 65 }, () => packed.manifest.layers[0]);
    handler = (_request, response) => response.writeHead(200).end(JSON.stringify({ ...packed.manifest, layers }));
    expect((await refusal(createRegistryClient().getManifest(ref))).code).toBe('bad_manifest');
    handler = (_request, response) => response.writeHead(200).end(JSON.stringify({ schemaVersion: 2, mediaType: 'application/vnd.oci.image.index.v1+json', manifests: [] }));
    expect((await refusal(createRegistryClient().getManifest(ref))).code).toBe('bad_manifest');
  });

  it('a redirect of a manifest to another host, and of a blob to another host over plain http', async () => {
    handler = (_request, response) => response.writeHead(307, { location: `http://${other.address}/v2/tools/greet/manifests/1` }).end();
    const manifestError = await refusal(createRegistryClient().getManifest(ref));
    expect(manifestError.code).toBe('redirect_refused');
    expect(manifestError.message).toContain(other.address);
    const blobError = await refusal(createRegistryClient().getBlob(ref, sha256Digest(wasm)));
    expect(blobError.code).toBe('redirect_refused');
    expect(otherHits).toBe(0);
  });

  it('follows a redirect within the registry, and refuses a redirect loop', async () => {
    handler = (request, response) => {
      if (request.url === '/v2/tools/greet/manifests/1') response.writeHead(302, { location: '/moved' }).end();
      else response.writeHead(200).end(manifestBytes);
    };
    expect((await createRegistryClient().getManifest(ref)).digest).toBe(manifestDigest);
    handler = (_request, response) => response.writeHead(302, { location: '/v2/tools/greet/manifests/1' }).end();
    expect((await refusal(createRegistryClient().getManifest(ref))).code).toBe('redirect_refused');
  });

  it('plain http only on loopback: another registry needs plainHttp', async () => {
    const error = await refusal(createRegistryClient({ timeoutMs: 10_000 }).getManifest({ registry: 'registry.invalid', repository: 'x/y', tag: '1' }));
    expect(error.code).toBe('network');
    expect(error.message).toContain('registry.invalid');
  });

  it('answers a Bearer challenge with the docker config credentials, which never appear in errors', async () => {
    const work = temporaryDirectory('toolhost-auth-');
    try {
      mkdirSync(join(work.path, 'docker'));
      const secret = 'hunter2-not-in-logs';
      writeFileSync(join(work.path, 'docker', 'config.json'), JSON.stringify({ auths: { [registry.address]: { auth: Buffer.from(`robot:${secret}`).toString('base64') } } }));
      const seenTokenRequests: string[] = [];
      handler = (request, response) => {
        if (request.url?.startsWith('/token')) {
          seenTokenRequests.push(`${request.headers.authorization ?? ''} ${request.url}`);
          const ok = request.headers.authorization === `Basic ${Buffer.from(`robot:${secret}`).toString('base64')}`;
          response.writeHead(ok ? 200 : 401).end(ok ? JSON.stringify({ token: 'registry-token' }) : '');
          return;
        }
        if (request.headers.authorization !== 'Bearer registry-token') {
          response.writeHead(401, { 'www-authenticate': `Bearer realm="http://${registry.address}/token",service="test",scope="repository:tools/greet:pull"` }).end();
          return;
        }
        response.writeHead(200).end(manifestBytes);
      };
      const client = createRegistryClient({ credentials: defaultCredentialSource({ DOCKER_CONFIG: join(work.path, 'docker') }) });
      expect((await client.getManifest(ref)).digest).toBe(manifestDigest);
      expect(seenTokenRequests[0]).toContain('scope=repository%3Atools%2Fgreet%3Apull');

      // Wrong credentials: unauthorized, and the message holds neither the password nor the header.
      writeFileSync(join(work.path, 'docker', 'config.json'), JSON.stringify({ auths: { [registry.address]: { username: 'robot', password: 'wrong-secret' } } }));
      const error = await refusal(createRegistryClient({ credentials: defaultCredentialSource({ DOCKER_CONFIG: join(work.path, 'docker') }) }).getManifest(ref));
      expect(error.code).toBe('unauthorized');
      expect(error.message).not.toContain('wrong-secret');
      expect(error.message).not.toContain(Buffer.from('robot:wrong-secret').toString('base64'));
    } finally {
      work.remove();
    }
  });

  it('never sends credentials to a token realm over plain http on another host', async () => {
    const work = temporaryDirectory('toolhost-auth-');
    try {
      mkdirSync(join(work.path, 'docker'));
      writeFileSync(join(work.path, 'docker', 'config.json'), JSON.stringify({ auths: { [registry.address]: { username: 'robot', password: 'pw' } } }));
      handler = (_request, response) => response.writeHead(401, { 'www-authenticate': 'Bearer realm="http://token.invalid/token",service="x"' }).end();
      const error = await refusal(createRegistryClient({ credentials: defaultCredentialSource({ DOCKER_CONFIG: join(work.path, 'docker') }) }).getManifest(ref));
      expect(error.code).toBe('unauthorized');
      expect(error.message).toContain('https only');
    } finally {
      work.remove();
    }
  });
});
