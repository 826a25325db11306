// The resources the official conformance suite reads (`test://static-text`, `test://static-binary`,
// `test://template/{id}/data`, `test://watched-resource`), for the conformance run only
// (test/conformance/serve.mjs). They are served through toolhost's real path for resources: each
// `test://` URI names a file of the run's workspace (written by run.mjs, `CONFORMANCE_FILES`), read and
// watched by the workspace source (src/resources/workspace-source.ts: confinement, media type, text or
// base64 blob, chokidar watch). This module is a ResourceSource plugged in through the general extension
// point (`resourceSources` of the composition root), not a special case in toolhost.
import { ResourceError, workspaceResourceSource } from '../../dist/src/resources/index.js';

/** Workspace files the run writes, by path: the content the suite's scenarios expect. */
export const CONFORMANCE_FILES = {
  'conformance/static-text.txt': 'This is the content of the static text resource.',
  // A PNG signature and header start: binary (NUL bytes), so it is read as a base64 blob.
  'conformance/static-binary.png': Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  'conformance/watched-resource.txt': 'This resource is watched for changes.',
  'conformance/template/123/data.json': '{"id":"123","data":"Data for item 123"}\n',
};

const STATIC = {
  'test://static-text': { file: 'conformance/static-text.txt', name: 'static-text', mimeType: 'text/plain' },
  'test://static-binary': { file: 'conformance/static-binary.png', name: 'static-binary', mimeType: 'image/png' },
  'test://watched-resource': { file: 'conformance/watched-resource.txt', name: 'watched-resource', mimeType: 'text/plain' },
};
const TEMPLATE = /^test:\/\/template\/([^/]+)\/data$/;

/** The workspace URI a `test://` URI is served from (undefined: none). */
function fileUriOf(uri) {
  const fixed = STATIC[uri];
  if (fixed !== undefined) return `file:///${fixed.file}`;
  const match = TEMPLATE.exec(uri);
  // The id goes into the path as one encoded segment; the workspace source refuses `..` and the like.
  return match === null ? undefined : `file:///conformance/template/${encodeURIComponent(match[1])}/data.json`;
}

function notServed(uri) {
  return new ResourceError('NOT_FOUND', `The conformance fixture serves no "${uri}".`);
}

/** A ResourceSource for `test://…` over the files of `workspaceRoot`. */
export function conformanceResourceSource({ workspaceRoot, permissionMode }) {
  const files = workspaceResourceSource({ workspaceRoot, permissionMode });
  const target = (uri) => {
    const file = fileUriOf(uri);
    if (file === undefined) throw notServed(uri);
    return file;
  };
  return {
    name: 'conformance',
    handles: (uri) => uri.startsWith('test://'),
    async list() {
      return { resources: Object.entries(STATIC).map(([uri, { name, mimeType }]) => ({ uri, name, mimeType })) };
    },
    templates: () => [{ uriTemplate: 'test://template/{id}/data', name: 'template-data', description: 'Data of one item, by its id.', mimeType: 'application/json' }],
    async read(uri, signal) {
      const contents = await files.read(target(uri), signal);
      return contents.map((content) => ({ ...content, uri }));
    },
    watch: async (uri, onUpdated) => files.watch(target(uri), onUpdated),
    close: () => files.close(),
  };
}
