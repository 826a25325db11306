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
