#!/usr/bin/env bash
# Builds the OTLP receiver the tracing tests query: Jaeger all-in-one (in-memory store; OTLP/HTTP on :4318 by
# default, the query API at :16686/api/traces/<trace id>), pinned, from the Go module proxy, into
# ${XDG_CACHE_HOME:-$HOME/.cache}/toolhost-ci/go-bin/jaeger-all-in-one. Idempotent: a binary of the pinned version
# is kept. Prints the binary's path on its last line; the tests read it from TOOLHOST_TEST_JAEGER.
#
# `go install module/cmd@version` refuses Jaeger because its go.mod has a replace directive, so the build runs in a
# throw-away wrapper module that requires the pinned version and repeats that replace.
set -euo pipefail
version=v1.76.0
sarama_replace='github.com/Shopify/sarama => github.com/Shopify/sarama v1.33.0'
go_bin="${XDG_CACHE_HOME:-$HOME/.cache}/toolhost-ci/go-bin"
binary="$go_bin/jaeger-all-in-one"
stamp="$binary.version"
mkdir -p "$go_bin"
if [ -x "$binary" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$version" ]; then
  echo "$binary"
  exit 0
fi
command -v go >/dev/null || { echo 'Go is needed to build the Jaeger all-in-one OTLP receiver' >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > go.mod <<MOD
module toolhost-ci/jaeger-all-in-one

go 1.24.6

require github.com/jaegertracing/jaeger $version

replace $sarama_replace
MOD
cat > tools.go <<'SRC'
//go:build tools

package tools

import _ "github.com/jaegertracing/jaeger/cmd/all-in-one"
SRC
GOFLAGS=-mod=mod go mod tidy -e >/dev/null 2>&1 || true
GOFLAGS=-mod=mod go get "github.com/jaegertracing/jaeger/cmd/all-in-one@$version"
GOFLAGS=-mod=mod go build -trimpath -o "$binary.tmp" github.com/jaegertracing/jaeger/cmd/all-in-one
mv "$binary.tmp" "$binary"
echo "$version" > "$stamp"
echo "$binary"
