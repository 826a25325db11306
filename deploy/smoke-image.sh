#!/usr/bin/env bash
# Runs the toolhost image the way the Helm chart does and checks it end to end (slow: a bench/CI step,
# `npm run image:smoke`; not part of `npm test`):
#   read-only root file system, tmpfs /tmp and /run/toolhost, a workspace volume, uid 10001, tokens from env;
#   /healthz and /readyz answer, the image's HEALTHCHECK passes, the baked wasm tool is served from the
#   read-only baked cache, a `shell` call reports which isolation ran, and SIGTERM drains to exit 0.
#   bash deploy/smoke-image.sh [tag]     (default localhost/toolhost:dev; built by deploy/build-image.sh)
# Needs podman (Debian's `podman`; rootful, vfs storage like build-image.sh). Host network, so no CNI is needed.
set -euo pipefail
tag="${1:-localhost/toolhost:dev}"
podman=(podman --storage-driver "${BUILDAH_STORAGE_DRIVER:-vfs}")
port="${SMOKE_PORT:-17411}"
token="smoke-token-$RANDOM$RANDOM$RANDOM"
admin="smoke-admin-$RANDOM$RANDOM$RANDOM$RANDOM"
workspace="$(mktemp -d)"
chown 10001:10001 "$workspace"
name="toolhost-smoke-$$"
cleanup() { "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true; rm -rf "$workspace"; }
trap cleanup EXIT

"${podman[@]}" run -d --name "$name" --network host --read-only --tmpfs /tmp --tmpfs /run/toolhost \
  -v "$workspace:/var/lib/toolhost/workspace" -e TOOLHOST_PORT="$port" -e TOOLHOST_TOKEN="$token" -e TOOLHOST_ADMIN_TOKEN="$admin" \
  --security-opt seccomp=unconfined --security-opt apparmor=unconfined --security-opt systempaths=unconfined \
  "$tag" >/dev/null
url="http://127.0.0.1:$port"
for _ in $(seq 1 120); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
echo "readyz:  $(curl -sS "$url/readyz")"
echo "healthz: $(curl -sS "$url/healthz")"
"${podman[@]}" healthcheck run "$name" && echo "HEALTHCHECK: healthy"
echo "user:    $("${podman[@]}" exec "$name" id)"
echo "rootfs:  $("${podman[@]}" exec "$name" sh -c 'touch /opt/toolhost/x 2>&1 || true')"
auth=(-H "authorization: Bearer $token" -H 'content-type: application/json')
echo "tools:   $(curl -sS "${auth[@]}" "$url/v1/tools" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const b=JSON.parse(s);console.log(b.tools.map(t=>t.name).join(" "), "tools_digest", b.tools_digest.slice(0,12))})')"
echo "greet:   $(curl -sS "${auth[@]}" -d '{"arguments":{"name":"fleet"}}' "$url/v1/tools/greet/call")"
echo "shell:   $(curl -sS "${auth[@]}" -d '{"arguments":{"command":"id -u; ls /var/cache/toolhost 2>&1 | head -1"}}' "$url/v1/tools/shell/call")"
echo "cache warning in logs: $("${podman[@]}" logs "$name" 2>&1 | grep -c TOOLHOST_CACHE_READ_ONLY || true)"
"${podman[@]}" stop -t 40 "$name" >/dev/null
echo "exit code after SIGTERM: $("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")"
"${podman[@]}" logs "$name" 2>&1 | grep -E 'draining|drained|closed' | cut -c1-200
