/**
 * A tool as an OCI artifact, in the CNCF / Bytecode Alliance convention for wasm (what `wkg` and
 * `oras` push and pull): an image manifest whose config is `application/vnd.wasm.config.v0+json`
 * and whose first layer is the component, `application/wasm`. The sidecars travel as extra layers
 * of the same manifest (so a signature over the manifest covers them), each with its own media type
 * and an `org.opencontainers.image.title` annotation (the file name `oras pull` writes):
 *
 * | file                      | layer media type                                   |
 * | `<tool>.wasm`             | `application/wasm`                                 |
 * | `<tool>.policy.json`      | `application/vnd.toolhost.policy.v1+json`          |
 * | `<tool>.tool.json`        | `application/vnd.toolhost.tool.v1+json`            |
 * | `<tool>.usage.kdl`        | `application/vnd.toolhost.spec.usage.v1+kdl`       |
 * | `<tool>.oclif.manifest.json` | `application/vnd.toolhost.spec.oclif.v1+json`   |
 * | `<tool>.carapace.yaml`    | `application/vnd.toolhost.spec.carapace.v1+yaml`   |
 *
 * Packing is deterministic (no timestamps): the same files push to the same digest. Unpacking picks
 * layers by media type, never by their title (a title is the pusher's text, not a path to write).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { sidecarPaths } from '../../extensions/tool-names.ts';
import { MAX_SPEC_SIDECAR_BYTES } from '../../introspect/sidecars/index.ts';
import { classifyBinary } from '../../wasm/component-kind.ts';
import { OciError, type FetchedManifest, type OciDescriptor, type OciManifest, type OciReference, type RegistryClient } from '../registry-types.ts';
import { OCI_MANIFEST_MEDIA_TYPE, sha256Digest } from './client.ts';

export const WASM_CONFIG_MEDIA_TYPE = 'application/vnd.wasm.config.v0+json';
export const WASM_LAYER_MEDIA_TYPE = 'application/wasm';
export const TITLE_ANNOTATION = 'org.opencontainers.image.title';

/** The sidecar kinds: the key used in install plans, the file suffix, the layer media type. */
export const SIDECAR_LAYERS = Object.freeze([
  { key: 'policy', suffix: '.policy.json', mediaType: 'application/vnd.toolhost.policy.v1+json' },
  { key: 'overrides', suffix: '.tool.json', mediaType: 'application/vnd.toolhost.tool.v1+json' },
  { key: 'usage', suffix: '.usage.kdl', mediaType: 'application/vnd.toolhost.spec.usage.v1+kdl' },
  { key: 'oclif', suffix: '.oclif.manifest.json', mediaType: 'application/vnd.toolhost.spec.oclif.v1+json' },
  { key: 'carapace', suffix: '.carapace.yaml', mediaType: 'application/vnd.toolhost.spec.carapace.v1+yaml' },
] as const);

export type SidecarKey = (typeof SIDECAR_LAYERS)[number]['key'];

/** A sidecar layer is small text; anything larger is refused before it is fetched. */
export const MAX_SIDECAR_BYTES = MAX_SPEC_SIDECAR_BYTES;
/** The largest component pulled. */
export const MAX_COMPONENT_BYTES = 256 * 1024 * 1024;

/** The files of one tool, by kind: what a push packs and a pull installs. */
export interface ToolFiles {
  wasm: Uint8Array;
  sidecars: Partial<Record<SidecarKey, Uint8Array>>;
}

export interface PackedArtifact {
  manifest: OciManifest;
  config: Uint8Array;
  blobs: Uint8Array[];
}

/** Reads `file` and the sidecars next to it. */
export function readToolFiles(file: string): ToolFiles {
  const paths = sidecarPaths(file) as Record<string, string>;
  const sidecars: Partial<Record<SidecarKey, Uint8Array>> = {};
  for (const layer of SIDECAR_LAYERS) {
    const path = paths[layer.key];
    if (path !== undefined && existsSync(path)) sidecars[layer.key] = readFileSync(path);
  }
  return { wasm: readFileSync(file), sidecars };
}

/** The manifest, config and blobs of a tool named `stem` (the file names in the title annotations). */
export function packTool(stem: string, files: ToolFiles): PackedArtifact {
  const classified = classifyBinary(files.wasm);
  if (classified.kind === 'refused') throw new OciError('bad_manifest', `not a runnable tool: ${classified.reason}`);
  const blobs: Uint8Array[] = [files.wasm];
  const layers: OciDescriptor[] = [descriptor(WASM_LAYER_MEDIA_TYPE, files.wasm, `${stem}.wasm`)];
  for (const layer of SIDECAR_LAYERS) {
    const bytes = files.sidecars[layer.key];
    if (bytes === undefined) continue;
    if (bytes.length > MAX_SIDECAR_BYTES) throw new OciError('too_large', `${stem}${layer.suffix} is larger than ${MAX_SIDECAR_BYTES} bytes`);
    blobs.push(bytes);
    layers.push(descriptor(layer.mediaType, bytes, `${stem}${layer.suffix}`));
  }
  const config = new TextEncoder().encode(
    JSON.stringify({
      architecture: 'wasm',
      os: classified.kind === 'component' ? 'wasip2' : 'wasip1',
      layerDigests: layers.map((layer) => layer.digest),
    }),
  );
  return {
    manifest: {
      schemaVersion: 2,
      mediaType: OCI_MANIFEST_MEDIA_TYPE,
      config: { mediaType: WASM_CONFIG_MEDIA_TYPE, digest: sha256Digest(config), size: config.length },
      layers,
    },
    config,
    blobs,
  };
}

function descriptor(mediaType: string, bytes: Uint8Array, title: string): OciDescriptor {
  return { mediaType, digest: sha256Digest(bytes), size: bytes.length, annotations: { [TITLE_ANNOTATION]: title } };
}

/** Pushes the blobs, then the manifest under the reference's tag (or by digest); returns the manifest digest. */
export async function pushArtifact(client: RegistryClient, ref: OciReference, packed: PackedArtifact): Promise<string> {
  await client.putBlob(ref, packed.config);
  for (const blob of packed.blobs) await client.putBlob(ref, blob);
  const digest = await client.putManifest(ref, packed.manifest, ref.tag);
  if (ref.digest !== undefined && ref.digest !== digest) {
    throw new OciError('digest_mismatch', `the packed artifact's digest is ${digest}, not the ${ref.digest} in the reference`);
  }
  return digest;
}

/** Where each file of a pulled artifact comes from. */
export interface ArtifactLayout {
  wasm: OciDescriptor;
  sidecars: Partial<Record<SidecarKey, OciDescriptor>>;
  /** Layers toolhost does not know (left alone). */
  ignored: OciDescriptor[];
}

/** Picks the component and sidecar layers by media type; refuses an artifact without exactly one component. */
export function layoutOf(fetched: FetchedManifest, what: string): ArtifactLayout {
  const wasmLayers = fetched.manifest.layers.filter((layer) => layer.mediaType === WASM_LAYER_MEDIA_TYPE);
  if (wasmLayers.length !== 1) {
    throw new OciError('bad_manifest', `${what} has ${wasmLayers.length} ${WASM_LAYER_MEDIA_TYPE} layers: a tool artifact has exactly one (media types: ${[...new Set(fetched.manifest.layers.map((layer) => layer.mediaType))].join(', ').slice(0, 300) || 'none'})`);
  }
  const sidecars: Partial<Record<SidecarKey, OciDescriptor>> = {};
  const ignored: OciDescriptor[] = [];
  for (const layer of fetched.manifest.layers) {
    if (layer.mediaType === WASM_LAYER_MEDIA_TYPE) continue;
    const kind = SIDECAR_LAYERS.find((entry) => entry.mediaType === layer.mediaType);
    if (kind === undefined) ignored.push(layer);
    else if (sidecars[kind.key] !== undefined) throw new OciError('bad_manifest', `${what} has two ${kind.mediaType} layers`);
    else sidecars[kind.key] = layer;
  }
  return { wasm: wasmLayers[0]!, sidecars, ignored };
}

/** Fetches the files of a pulled artifact (each checked against its digest and size cap). */
export async function fetchToolFiles(
  client: RegistryClient,
  ref: OciReference,
  layout: ArtifactLayout,
  blobs: { get(digest: string): Uint8Array | undefined; put(digest: string, bytes: Uint8Array): void } | undefined,
): Promise<ToolFiles> {
  const fetchOne = async (layer: OciDescriptor, maxBytes: number, what: string): Promise<Uint8Array> => {
    if (layer.size > maxBytes) throw new OciError('too_large', `${what} is ${layer.size} bytes, more than the ${maxBytes} allowed`);
    const cached = blobs?.get(layer.digest);
    const bytes = cached ?? (await client.getBlob(ref, layer.digest, { maxBytes }));
    if (bytes.length !== layer.size) throw new OciError('digest_mismatch', `${what} is ${bytes.length} bytes, not the ${layer.size} its manifest says`);
    if (cached === undefined) blobs?.put(layer.digest, bytes);
    return bytes;
  };
  const wasm = await fetchOne(layout.wasm, MAX_COMPONENT_BYTES, 'the component');
  const sidecars: Partial<Record<SidecarKey, Uint8Array>> = {};
  for (const layer of SIDECAR_LAYERS) {
    const descriptorOf = layout.sidecars[layer.key];
    if (descriptorOf !== undefined) sidecars[layer.key] = await fetchOne(descriptorOf, MAX_SIDECAR_BYTES, `the ${layer.suffix} layer`);
  }
  return { wasm, sidecars };
}

/** The stem a file name gives (`greet.wasm` → `greet`). */
export function stemOf(file: string): string {
  return basename(file).replace(/\.wasm$/, '');
}
