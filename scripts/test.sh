#!/usr/bin/env bash
# zoneline's whole test suite, as CI runs it: formatting, vet and lint (goimports, staticcheck), unit,
# script and fuzz-seed tests under the race detector, cross-compilation, install.sh into a temp prefix, and the
# end-to-end tests against the real Claude Code CLI (tmux + a local mock of the model API).
#   scripts/test.sh            everything
#   ZONELINE_E2E=0 scripts/test.sh   skip the end-to-end tests
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

echo "== gofmt, go vet"
bad=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$bad" ]; then echo "gofmt would change:"; echo "$bad"; exit 1; fi
go vet ./...

echo "== lint: imports grouped (goimports -local), staticcheck (staticcheck.conf), the release workflow (actionlint)"
# Pinned versions from the Go module proxy, built for this machine; staticcheck then checks
# each target's build (GOOS picks the files).
lintbin=$(mktemp -d)
GOBIN=$lintbin go install golang.org/x/tools/cmd/goimports@v0.51.0
GOBIN=$lintbin go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOBIN=$lintbin go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
"$lintbin/actionlint"
bad=$("$lintbin/goimports" -l -local github.com/zoneline/zoneline $(git ls-files '*.go'))
if [ -n "$bad" ]; then echo "goimports -local github.com/zoneline/zoneline would change:"; echo "$bad"; exit 1; fi
for goos in linux darwin windows; do
  GOOS=$goos "$lintbin/staticcheck" ./...
done
rm -rf "$lintbin"

echo "== cross-compile"
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
  GOOS=${target%/*} GOARCH=${target#*/} CGO_ENABLED=0 go build -o /dev/null ./...
  GOOS=${target%/*} GOARCH=${target#*/} go vet ./... >/dev/null
done

echo "== install.sh into a temp prefix"
# A fresh HOME, but the same Go caches: install.sh's build must not re-download the modules.
export GOCACHE=$(go env GOCACHE) GOMODCACHE=$(go env GOMODCACHE)
if [ -x ./install.sh ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  HOME=$tmp/home PREFIX=$tmp/prefix CLAUDE_CONFIG_DIR=$tmp/home/.claude XDG_CONFIG_HOME=$tmp/home/.config \
    XDG_STATE_HOME=$tmp/home/.local/state ./install.sh >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
  "$tmp/prefix/bin/zoneline" version
fi

echo "== go test -race (unit, script and fuzz-seed tests)"
ZONELINE_E2E=0 go test -race -timeout 30m ./...

if [ "${ZONELINE_E2E:-1}" != 0 ]; then
  echo "== end to end: the real Claude Code CLI in tmux against a local mock of the model API"
  ZONELINE_E2E=1 go test -p 1 -count=1 -timeout 40m -v ./e2e/ 2>&1 | grep -vE '^=== (RUN|PAUSE|CONT)'
fi

echo "== install routes without a clone: release archives, npm from a local registry, npx, go install"
scripts/release-test.sh

echo "== the Windows build under Wine: unit tests and a round trip of zoneline.exe"
scripts/wine-test.sh
