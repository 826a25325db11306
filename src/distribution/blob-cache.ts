/**
 * Content-addressed cache of pulled blobs and manifests: `<cache dir>/oci/sha256/<hex>`. It is what
 * makes `toolhost sync` work offline: a locked tool whose manifest and layers are here installs
 * without a registry. Every read is checked against its digest (a cache entry that was changed on
 * disk is a miss, and is removed); writes go through a temporary file and a rename.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDigest } from './oci/reference.ts';

export interface BlobCache {
  get(digest: string): Uint8Array | undefined;
  put(digest: string, bytes: Uint8Array): void;
}

export function blobCacheAt(cacheDirectory: string): BlobCache {
  const root = join(cacheDirectory, 'oci', 'sha256');
  const pathOf = (digest: string): string | undefined => (isDigest(digest) ? join(root, digest.slice('sha256:'.length)) : undefined);
  return {
    get(digest) {
      const path = pathOf(digest);
      if (path === undefined) return undefined;
      let bytes: Buffer;
      try {
        bytes = readFileSync(path);
      } catch {
        return undefined;
      }
      if (`sha256:${createHash('sha256').update(bytes).digest('hex')}` !== digest) {
        rmSync(path, { force: true });
        return undefined;
      }
      return bytes;
    },
    put(digest, bytes) {
      const path = pathOf(digest);
      if (path === undefined) return;
      try {
        mkdirSync(root, { recursive: true });
        const temporary = `${path}.${process.pid}.tmp`;
        writeFileSync(temporary, bytes);
        renameSync(temporary, path);
      } catch {
        // a cache that cannot be written is only slower
      }
    },
  };
}
