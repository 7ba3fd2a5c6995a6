#!/usr/bin/env bash
# Builds the release files from this clone's HEAD, as a tagged release would, without publishing
# anything: GoReleaser (pinned, installed once into a cache) writes the archives for linux, darwin
# and windows, SHA256SUMS and the npm tarballs into dist/. Go is needed here, not on the machine
# you install on: carry an archive or the two npm tarballs over.
#   scripts/release.sh
set -euo pipefail
cd "$(dirname "$0")/.."
goreleaser_version=v2.15.1
tools=${ZONELINE_TOOLS:-$HOME/.cache/zoneline-tools}
gr=$tools/goreleaser-$goreleaser_version/goreleaser
if [ ! -x "$gr" ]; then
	echo "release: go install github.com/goreleaser/goreleaser/v2@$goreleaser_version (once, into $tools; takes minutes)" >&2
	mkdir -p "$(dirname "$gr")"
	GOBIN=$(dirname "$gr") go install "github.com/goreleaser/goreleaser/v2@$goreleaser_version"
fi
[ -z "$(git status --porcelain)" ] || echo "release: note: uncommitted changes are not in the build (GoReleaser builds HEAD)" >&2
"$gr" release --snapshot --clean --skip=publish >dist.log 2>&1 || { cat dist.log; echo "release: goreleaser failed" >&2; exit 1; }
rm -f dist.log
(cd dist && sha256sum --quiet -c SHA256SUMS)
version=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' dist/metadata.json | head -1)
case "$(uname -s)" in Darwin) os=darwin npmos=darwin ;; *) os=linux npmos=linux ;; esac
case "$(uname -m)" in arm64 | aarch64) arch=arm64 cpu=arm64 ;; *) arch=amd64 cpu=x64 ;; esac
cat <<MSG
release: version $version in dist/ (checksums verified). To install on a machine like this one:
  tar -xzf dist/zoneline_${version}_${os}_${arch}.tar.gz && ./zoneline_${version}_${os}_${arch}/zoneline install
or with npm, from the two tarballs:
  npm i -g ./dist/zoneline-${npmos}-${cpu}-${version}.tgz ./dist/zoneline-${version}.tgz && zoneline install
MSG
