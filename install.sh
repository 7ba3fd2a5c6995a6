#!/usr/bin/env bash
# install.sh: build zoneline from this checkout, install it, register it with Claude Code.
#
#   ./install.sh [--prefix DIR] [--no-register] [--dry-run] [--force] [--project]
#
# Builds static, stripped binaries (zoneline, and zoneline-notify when present) into
# ${PREFIX:-$HOME/.local}/bin, checks that the installed zoneline answers `version`, shows
# `zoneline preview`, then runs `zoneline install` (which merges the status line and hooks
# into Claude Code's settings.json, installs the skills, writes a default config and
# says what to do next).
#
#   --prefix DIR    install into DIR/bin (default: $PREFIX, else $HOME/.local)
#   --no-register   build and install the binaries only (also: ZONELINE_NO_REGISTER=1)
#   --dry-run       build into a temp dir (removed), show what would be installed and the
#                   settings diff: nothing is written anywhere
#   --force, --project
#                   passed to `zoneline install` (see `zoneline install -h`)
#
# Works with bash 3.2 and BSD tools (macOS) as well as Linux.
set -eu

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

root=$(cd "$(dirname "$0")" && pwd -P)
prefix=${PREFIX:-${HOME:?HOME is not set}/.local}
register=1
if [ "${ZONELINE_NO_REGISTER:-}" = "1" ]; then register=0; fi
install_args=""
dry=0

while [ $# -gt 0 ]; do
	case $1 in
	--prefix) [ $# -ge 2 ] || die "--prefix needs a directory"; prefix=$2; shift ;;
	--prefix=*) prefix=${1#--prefix=} ;;
	--no-register) register=0 ;;
	--dry-run|-dry-run) dry=1; install_args="$install_args --dry-run" ;;
	--force|--project|-force|-project) install_args="$install_args $1" ;;
	-h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
	*) die "unknown option $1 (see ./install.sh --help)" ;;
	esac
	shift
done

command -v go >/dev/null 2>&1 || die "go is not on PATH: install Go (see go.mod for the version) from https://go.dev/dl/ and run me again"

bindir=$prefix/bin
if [ "$dry" = 0 ]; then
	mkdir -p "$bindir" || die "cannot create $bindir: choose another place with --prefix DIR"
fi

version=dev
if command -v git >/dev/null 2>&1 && git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
	version=$(git -C "$root" describe --tags --always --dirty 2>/dev/null || echo dev)
fi

exe=""
case $(go env GOOS) in windows) exe=.exe ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/zoneline-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

build() { # build ./cmd/NAME into $tmp/NAME
	say "building $1 $version"
	(cd "$root" && CGO_ENABLED=0 go build -trimpath \
		-ldflags "-s -w -X github.com/zoneline/zoneline/cli.Version=$version -X main.version=$version" \
		-o "$tmp/$1$exe" "./cmd/$1") || die "go build ./cmd/$1 failed (see above)"
}

build zoneline
names=zoneline
if [ -d "$root/cmd/zoneline-notify" ]; then
	build zoneline-notify
	names="$names zoneline-notify"
fi

zl=$bindir/zoneline$exe
if [ "$dry" = 1 ]; then
	# A dry run runs the binary it built, from the temp dir, and writes nothing: not the
	# binaries, not the settings, not the skills or the config.
	for n in $names; do say "dry run: would install $bindir/$n$exe"; done
	run=$tmp/zoneline$exe
else
	# Move into place: a rename, so a zoneline that Claude Code is running right now is not
	# overwritten in place.
	for n in $names; do
		cp "$tmp/$n$exe" "$bindir/.$n$exe.new" || die "cannot write to $bindir"
		chmod 755 "$bindir/.$n$exe.new"
		mv -f "$bindir/.$n$exe.new" "$bindir/$n$exe"
		say "installed $bindir/$n$exe"
	done
	run=$zl
fi

got=$("$run" version 2>&1) || die "the installed $run does not run: $got"
case $got in
*"$version"*) say "check: $got" ;;
*) die "the installed $run answers \"$got\", expected version $version" ;;
esac

case ":${PATH:-}:" in
*":$bindir:"*) ;;
*) say ""
	say "warning: $bindir is not on your PATH. Claude Code runs zoneline by its full path, so it works;"
	say "         to type 'zoneline' yourself, add this to your shell's profile:"
	say "             export PATH=\"$bindir:\$PATH\"" ;;
esac

say ""
"$run" preview || true

if [ "$register" = 1 ]; then
	say ""
	# zoneline install ends with what to do next (one text, the binary's).
	# shellcheck disable=SC2086 # install_args is a list of known flags
	"$run" install -bin "$zl" $install_args || die "zoneline install failed (see above); nothing else to undo: run it again once fixed"
else
	say ""
	say "not registered with Claude Code (--no-register); run '$zl install' when you want it"
fi

if [ "$dry" = 1 ]; then
	say ""
	say "dry run: nothing was written (run ./install.sh without --dry-run to install)"
fi
