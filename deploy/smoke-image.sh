#!/usr/bin/env bash
# Runs the toolhost image and checks it end to end (slow: `npm run image:smoke`, a bench/CI step, not part
# of `npm test`): uid 10001, tokens from env, a workspace volume; /readyz and /healthz answer, the image's
# HEALTHCHECK command passes, the baked wasm tool answers from the baked cache, a `shell` call says which
# isolation ran, and SIGTERM (to tini, as a runtime sends it) drains: /readyz 503 at once, a new call 503 +
# Retry-After, the call in flight finishes, exit 0.
#   bash deploy/smoke-image.sh [tag]     (default localhost/toolhost:dev, built by deploy/build-image.sh)
# Runs the image with `buildah run --isolation chroot` (no OCI runtime needed; host network; it does not make
# the root file system read-only: test/wasm/read-only-cache.test.ts covers the read-only cache).
# SMOKE_PORT picks the port (default 17411).
set -euo pipefail
tag="${1:-localhost/toolhost:dev}"
buildah=(buildah --storage-driver "${BUILDAH_STORAGE_DRIVER:-vfs}")
port="${SMOKE_PORT:-17411}"
token="smoke-token-$RANDOM$RANDOM$RANDOM"
admin="smoke-admin-$RANDOM$RANDOM$RANDOM$RANDOM"
workspace="$(mktemp -d)"
logs="$(mktemp)"
chown 10001:10001 "$workspace"
container="$("${buildah[@]}" from "$tag")"
cleanup() { "${buildah[@]}" rm "$container" >/dev/null 2>&1 || true; rm -rf "$workspace" "$logs"; }
trap cleanup EXIT
run() { "${buildah[@]}" run --isolation chroot --user 10001:10001 -v "$workspace:/var/lib/toolhost/workspace" \
  -e TOOLHOST_PORT="$port" -e TOOLHOST_TOKEN="$token" -e TOOLHOST_ADMIN_TOKEN="$admin" "$container" -- "$@"; }

# The image's ENTRYPOINT and CMD.
run /usr/bin/tini -- toolhost serve >"$logs" 2>&1 &
runner=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 240); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.5; done
echo "readyz:      $(curl -sS "$url/readyz")"
echo "healthz:     $(curl -sS "$url/healthz")"
run node -e "fetch('http://127.0.0.1:'+(process.env.TOOLHOST_PORT||7411)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" && echo "HEALTHCHECK: exit 0"
auth=(-H "authorization: Bearer $token" -H 'content-type: application/json')
echo "greet:       $(curl -sS "${auth[@]}" -d '{"arguments":{"name":"fleet"}}' "$url/v1/tools/greet/call")"
echo "shell:       $(curl -sS "${auth[@]}" -d '{"arguments":{"command":"id -u"}}' "$url/v1/tools/shell/call")"

# Drain: a call in flight, then SIGTERM to tini (PID 1 of the image).
curl -sS "${auth[@]}" -d '{"arguments":{"command":"touch started; while [ ! -e release ]; do sleep 0.1; done; echo released","timeout_ms":100000}}' "$url/v1/tools/shell/call" >"$workspace/.long" &
long=$!
for _ in $(seq 1 200); do [ -e "$workspace/started" ] && break; sleep 0.1; done
tini=""
for pid in $(pgrep -x tini); do
  tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "TOOLHOST_PORT=$port" && tini=$pid
done
[ -n "$tini" ] || { echo "tini not found"; exit 1; }
kill -TERM "$tini"
for _ in $(seq 1 100); do [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz")" = 503 ] && break; sleep 0.1; done
echo "after SIGTERM readyz: $(curl -sS -w ' (HTTP %{http_code})' "$url/readyz")"
echo "after SIGTERM a new call: $(curl -sS -D - -o /dev/null "${auth[@]}" -d '{"arguments":{"path":"."}}' "$url/v1/tools/list_dir/call" | grep -iE '^HTTP|^retry-after' | tr -d '\r' | tr '\n' ' ')"
touch "$workspace/release"
wait "$long"
echo "the call in flight: $(cat "$workspace/.long")"
status=0
wait "$runner" || status=$?
echo "exit status after SIGTERM: $status"
grep -E '"msg":"toolhost server (draining|drained|closed)' "$logs" | cut -c1-160
[ "$status" = 0 ]
