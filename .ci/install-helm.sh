#!/usr/bin/env bash
# Installs what the Helm chart's test (test/deploy/helm.test.ts) needs, pinned, into a cache, idempotently:
#   helm         (Go module helm.sh/helm/v3, built with `go install`)
#   kubeconform  (Go module github.com/yannh/kubeconform, built with `go install`)
#   Kubernetes JSON schemas for kubeconform, offline: the PyPI package kubernetes-validate ships them (in a
#   venv), and .ci/kubernetes-schemas.mjs makes them self-contained (kubeconform cannot follow their refs).
# Then prints the three env lines the test reads; `.ci/run` does:
#   eval "$(bash .ci/install-helm.sh)"
# Needs go, python3 (with venv) and node on PATH. Fails loudly on any error.
set -euo pipefail
cd "$(dirname "$0")/.."

helm_version=v3.22.0
kubeconform_version=v0.8.0
kubernetes_validate_version=1.37.0
# The Kubernetes version the chart is validated against (its kubeVersion allows >= 1.30).
kubernetes_version=v1.33.0

cache="${XDG_CACHE_HOME:-$HOME/.cache}/toolhost-ci"
go_bin="$cache/go-bin"
mkdir -p "$go_bin"

# The module version a `go install`ed binary was built from (its own --version says "development" or "v3.22").
built_from() { go version -m "$1" 2>/dev/null | awk -v module="$2" '$1 == "mod" && $2 == module { print $3 }'; }
install_go_binary() { # <binary> <module> <package> <version>
  if [ "$(built_from "$go_bin/$1" "$2")" != "$4" ]; then
    GOBIN="$go_bin" go install "$3@$4" >&2
  fi
  [ "$(built_from "$go_bin/$1" "$2")" = "$4" ] || { echo "$1 $4 did not install" >&2; exit 1; }
}
install_go_binary helm helm.sh/helm/v3 helm.sh/helm/v3/cmd/helm "$helm_version"
install_go_binary kubeconform github.com/yannh/kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$kubeconform_version"

venv="$cache/kubernetes-validate-$kubernetes_validate_version"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/pip" show kubernetes-validate 2>/dev/null | grep -qx "Version: $kubernetes_validate_version"; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q "kubernetes-validate==$kubernetes_validate_version" >&2
fi
source_schemas="$("$venv/bin/python" -c 'import kubernetes_validate, os; print(os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema"))')"
schemas="$cache/kubernetes-json-schema-$kubernetes_validate_version"
if [ ! -f "$schemas/$kubernetes_version-standalone-strict/deployment-apps-v1.json" ]; then
  rm -rf "$schemas.tmp"
  node .ci/kubernetes-schemas.mjs "$source_schemas" "$schemas.tmp" "$kubernetes_version" >&2
  rm -rf "$schemas"
  mv "$schemas.tmp" "$schemas"
fi

echo "export TOOLHOST_TEST_HELM='$go_bin/helm'"
echo "export TOOLHOST_TEST_KUBECONFORM='$go_bin/kubeconform'"
echo "export TOOLHOST_TEST_KUBE_SCHEMAS='$schemas'"
