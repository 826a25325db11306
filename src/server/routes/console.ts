/**
 * The web console: `GET /` and `GET /console` serve its page, `GET /console/{asset}` its scripts and
 * style. The assets are plain files under src/server/console/ (the build copies them next to the
 * compiled code), read once and kept in memory; only the names in `CONSOLE_ASSETS` are served, so no
 * request path ever reaches the file system. The page holds no data: everything it shows comes from
 * the API with the user's token, which is why `createHttpApp` mounts these routes before the token
 * guard (a browser navigation cannot send `Authorization`) and after the Host and Origin checks.
 *
 * A strict Content-Security-Policy keeps the console on its own origin: no script, style, image or
 * connection may come from anywhere else, so it works offline and a tool result rendered in it cannot
 * load anything.
 */
import { readFile } from 'node:fs/promises';
import { Hono, type Context } from 'hono';
import { jsonError } from '../http-errors.ts';

/** Where the assets live relative to this module, in the sources and in dist/ alike. */
export const CONSOLE_ASSET_DIRECTORY = new URL('../console/', import.meta.url);

/** Every file the console serves, by name, with its media type. */
export const CONSOLE_ASSETS: Readonly<Record<string, string>> = Object.freeze({
  'index.html': 'text/html; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'api.js': 'text/javascript; charset=utf-8',
  'approvals.js': 'text/javascript; charset=utf-8',
  'events.js': 'text/javascript; charset=utf-8',
  'catalog.js': 'text/javascript; charset=utf-8',
  'schema-form.js': 'text/javascript; charset=utf-8',
  'result-view.js': 'text/javascript; charset=utf-8',
  'live.js': 'text/javascript; charset=utf-8',
  'chart.js': 'text/javascript; charset=utf-8',
  'dom.js': 'text/javascript; charset=utf-8',
  'call-detail.js': 'text/javascript; charset=utf-8',
  'gates.js': 'text/javascript; charset=utf-8',
  'schedules.js': 'text/javascript; charset=utf-8',
  'protocol-log.js': 'text/javascript; charset=utf-8',
  'schema-check.js': 'text/javascript; charset=utf-8',
});

export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  // audio results play from data: URLs (result-view.js)
  "media-src data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Reads each asset at most once per process; a missing file is remembered as missing. */
export class ConsoleAssets {
  private readonly directory: URL;
  private readonly cache = new Map<string, Promise<Buffer | undefined>>();

  constructor(directory: URL = CONSOLE_ASSET_DIRECTORY) {
    this.directory = directory;
  }

  get(name: string): Promise<Buffer | undefined> {
    let pending = this.cache.get(name);
    if (pending === undefined) {
      pending = readFile(new URL(name, this.directory)).catch(() => undefined);
      this.cache.set(name, pending);
    }
    return pending;
  }
}

async function serveAsset(c: Context, assets: ConsoleAssets, name: string): Promise<Response> {
  const type = CONSOLE_ASSETS[name];
  if (type === undefined) return jsonError(c, 404, 'not_found', `No console asset "${name}".`);
  const body = await assets.get(name);
  if (body === undefined) {
    return jsonError(c, 500, 'internal_error', `The console asset "${name}" is missing from this installation (expected under src/server/console/ next to the server code).`);
  }
  return c.body(new Uint8Array(body), 200, {
    'Content-Type': type,
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': CONSOLE_CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
}

export function consoleRoutes(assets: ConsoleAssets = new ConsoleAssets()): Hono {
  const app = new Hono();
  app.get('/', (c) => serveAsset(c, assets, 'index.html'));
  app.get('/console', (c) => serveAsset(c, assets, 'index.html'));
  app.get('/console/:asset', (c) => serveAsset(c, assets, c.req.param('asset')));
  return app;
}
