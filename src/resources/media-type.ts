/**
 * The media type of a workspace file: from its extension when it is a well-known one, otherwise from
 * its content (`text/plain` for UTF-8 text without NUL bytes, `application/octet-stream` for the rest).
 * Whether a resource is sent as text or as a base64 blob depends on the content alone (`isText`), so
 * a `.json` file holding NUL bytes is still sent as a blob.
 */
import { looksBinary } from '../../builtins/internal/files.ts';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  xml: 'application/xml',
  json: 'application/json',
  jsonl: 'application/jsonl',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  ts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  py: 'text/x-python',
  rs: 'text/x-rust',
  go: 'text/x-go',
  c: 'text/x-c',
  h: 'text/x-c',
  cc: 'text/x-c++',
  cpp: 'text/x-c++',
  hpp: 'text/x-c++',
  java: 'text/x-java',
  sh: 'application/x-sh',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  mp4: 'video/mp4',
  zip: 'application/zip',
  gz: 'application/gzip',
  tar: 'application/x-tar',
  wasm: 'application/wasm',
};

/** The media type the file name's extension says, if it is a known one. */
export function mediaTypeByName(name: string): string | undefined {
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  if (dot <= slash + 1) return undefined;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The content as text when it is UTF-8 without NUL bytes near the start; undefined for binary content. */
export function decodeText(content: Uint8Array): string | undefined {
  if (looksBinary(content)) return undefined;
  try {
    return utf8.decode(content);
  } catch {
    return undefined;
  }
}

/** The media type to declare for a file of this name and content (`text` says whether it decoded as text). */
export function mediaTypeOf(name: string, isText: boolean): string {
  return mediaTypeByName(name) ?? (isText ? 'text/plain' : 'application/octet-stream');
}
