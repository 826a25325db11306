/**
 * The media a tool may print on stdout as an image or audio result, and how toolhost recognizes it:
 * by the leading bytes each format starts with (PNG, JPEG, GIF, WebP, WAV, MP3, OGG, FLAC), or, for
 * SVG (text, with no signature), only when the tool declares it and the text holds an `<svg` element
 * near its start. Every check reads a bounded prefix: linear, whatever a tool prints.
 */

/** Media types a tool may declare as its stdout (`.tool.json` / `--help-json` `output_media_type`). */
export const OUTPUT_MEDIA_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
  'audio/wav',
  'audio/mpeg',
  'audio/ogg',
  'audio/flac',
] as const;
export type OutputMediaType = (typeof OUTPUT_MEDIA_TYPES)[number];

/** The most bytes one image or audio part may have (decoded): past it the result is an error, not a cut picture. */
export const MAX_MEDIA_BYTES = 8 * 1024 * 1024;

/** How far into an SVG text its `<svg` element may start (after an XML declaration, comments, a doctype). */
const SVG_PREFIX_CHARS = 4096;

function startsWith(bytes: Uint8Array, prefix: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  return prefix.every((value, index) => bytes[offset + index] === value);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

const RIFF = ascii('RIFF');

/** The media type `bytes` start like, among the signature formats; undefined for anything else (SVG included). */
export function sniffMediaType(bytes: Uint8Array): Exclude<OutputMediaType, 'image/svg+xml'> | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, RIFF) && startsWith(bytes, ascii('WAVE'), 8)) return 'audio/wav';
  if (startsWith(bytes, ascii('OggS'))) return 'audio/ogg';
  if (startsWith(bytes, ascii('fLaC'))) return 'audio/flac';
  // MP3: an ID3v2 tag, or an MPEG audio frame sync (11 set bits; 0xFF is never UTF-8 text).
  if (startsWith(bytes, ascii('ID3')) || (bytes.length >= 2 && bytes[0] === 0xff && ((bytes[1] as number) & 0xe0) === 0xe0)) return 'audio/mpeg';
  return undefined;
}

/** True when `bytes` look like an SVG document: UTF-8 text with an `<svg` element near its start. */
export function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, SVG_PREFIX_CHARS));
  return /<svg[\s>/]/.test(head);
}

/** True when `bytes` are plausibly of media type `type` (its signature; SVG: see looksLikeSvg). Unknown types are not checked. */
export function bytesMatchMediaType(bytes: Uint8Array, type: string): boolean {
  if (type === 'image/svg+xml') return looksLikeSvg(bytes);
  if (!(OUTPUT_MEDIA_TYPES as readonly string[]).includes(type)) return true;
  return sniffMediaType(bytes) === type;
}

/** The MCP content kind of a media type: `image/*` → image, `audio/*` → audio. */
export function mediaKindOf(type: string): 'image' | 'audio' | undefined {
  if (type.startsWith('image/')) return 'image';
  if (type.startsWith('audio/')) return 'audio';
  return undefined;
}

/** The first bytes as hex, for an error message about bytes that are not what they claim. */
export function hexPrefix(bytes: Uint8Array, count = 8): string {
  if (bytes.length === 0) return 'nothing (empty output)';
  return [...bytes.subarray(0, count)].map((value) => value.toString(16).padStart(2, '0')).join(' ') + (bytes.length > count ? ' …' : '');
}
