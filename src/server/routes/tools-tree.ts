/**
 * Code mode's file tree: `GET /v1/tools/tree` lists one TypeScript declaration file per tool the
 * caller can use, `GET /v1/tools/tree/tools/{name}.d.ts` serves one (see
 * schema/typescript-declaration.ts). An agent lists the tree, reads only the few declarations it
 * needs instead of every schema, and writes `run_code` programs against them.
 *
 * Registered before the tool routes, so these paths win over `GET /v1/tools/{name}` for a tool
 * named "tree" (that tool stays callable, and readable through `GET /v1/tools`).
 */
import { lookupFor, toolsFor } from '../../identity/host-policy.ts';
import { requestPrincipal } from '../../identity/request-principal.ts';
import { Hono } from 'hono';
import type { Host } from '../../host-types.ts';
import { declarationPath, toolDeclaration } from '../../schema/typescript-declaration.ts';
import { notFoundDetails, publicExtensionText } from '../extension-paths.ts';
import { HttpError } from '../http-errors.ts';
import { toolNotServed } from './tools.ts';

export const DECLARATION_CONTENT_TYPE = 'application/typescript; charset=utf-8';

/** `GET /v1/tools/tree`: the files, sorted like the tool list. */
export interface ToolTree {
  files: { path: string }[];
}

const DECLARATION_PATH = /^tools\/([^/]+)\.d\.ts$/;

export function toolsTreeRoutes(host: Host): Hono {
  const app = new Hono();

  app.get('/v1/tools/tree', (c) => {
    const tree: ToolTree = { files: toolsFor(host, requestPrincipal(c.req.raw)).map((tool) => ({ path: declarationPath(tool.name) })) };
    return c.json(tree);
  });

  app.get('/v1/tools/tree/:path{.+}', (c) => {
    const path = c.req.param('path');
    const name = DECLARATION_PATH.exec(path)?.[1];
    if (name === undefined) {
      throw new HttpError(404, 'not_found', `No file "${path}" in the tool tree; its files are tools/<name>.d.ts (see GET /v1/tools/tree).`);
    }
    const lookup = lookupFor(host, name, requestPrincipal(c.req.raw));
    if (!lookup.found) {
      throw toolNotServed(host, lookup);
    }
    return c.body(toolDeclaration(lookup.tool), 200, { 'content-type': DECLARATION_CONTENT_TYPE });
  });

  return app;
}
