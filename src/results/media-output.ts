/**
 * A tool's stdout as one image or audio part: when the tool declares a media type for it
 * (`output_media_type`), or, when it declares none, when stdout starts like a known image or audio
 * format (src/results/media-types.ts). The bytes are taken as they are (never through a text decoder)
 * and base64-encoded. Refused, as an error saying why, are: output cut at the output limit (a cut
 * picture is no picture), more than MAX_MEDIA_BYTES, and bytes that are not the declared type.
 */
import type { AudioPart, ImagePart } from '../result.ts';
import { bytesMatchMediaType, hexPrefix, MAX_MEDIA_BYTES, mediaKindOf, sniffMediaType } from './media-types.ts';

export type MediaOutput = { ok: true; part: ImagePart | AudioPart } | { ok: false; message: string };

/** Undefined when stdout is not media (no type declared, none recognized): it is then read as text. */
export function readMediaOutput(stdout: Uint8Array, truncated: boolean, declared: string | undefined, sniff: boolean): MediaOutput | undefined {
  const type = declared ?? (sniff ? sniffMediaType(stdout) : undefined);
  if (type === undefined) return undefined;
  const kind = mediaKindOf(type);
  if (kind === undefined) return undefined;
  const how = declared !== undefined ? `declares ${type} output (output_media_type)` : `printed ${type} data`;
  if (truncated) {
    return { ok: false, message: `the tool ${how}, but it printed more than its output limit: the ${kind} is cut. Raise the policy's output_bytes, or have the tool write the file to a granted folder.` };
  }
  if (stdout.length > MAX_MEDIA_BYTES) {
    return { ok: false, message: `the tool ${how} of ${stdout.length} bytes, more than the ${MAX_MEDIA_BYTES} bytes an ${kind} result may have. Have the tool write the file to a granted folder instead.` };
  }
  if (declared !== undefined && !bytesMatchMediaType(stdout, type)) {
    return { ok: false, message: `the tool ${how}, but its stdout is not ${type} data (it starts with ${hexPrefix(stdout)})` };
  }
  return { ok: true, part: { type: kind, data: Buffer.from(stdout.buffer, stdout.byteOffset, stdout.byteLength).toString('base64'), mime_type: type } };
}

/**
 * True when `bytes` hold a secret of the call, as `redact` (the call's text redaction) finds it in the
 * bytes read as Latin-1 (one character per byte: ASCII secrets) or as UTF-8. Media bytes are not
 * redacted (that would break them): a result whose media carry a secret is refused instead.
 */
export function bytesHoldSecret(bytes: Uint8Array, redact: ((text: string) => string) | undefined): boolean {
  if (redact === undefined) return false;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const latin1 = view.toString('latin1');
  const utf8 = view.toString('utf8');
  return redact(latin1) !== latin1 || redact(utf8) !== utf8;
}

export const MEDIA_SECRET_MESSAGE = "the tool's image or audio output holds a secret used in this call; refused (media bytes cannot be redacted)";
