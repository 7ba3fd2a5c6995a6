#!/usr/bin/env bash
# Installs what zoneline's tests need beyond Go: tmux (the end-to-end harness drives Claude Code
# in it), python3 (the mock Messages API), dbus-daemon (a private session bus for the real
# notification tests), and the real Claude Code CLI from npm (pinned; the harness runs its
# native binary), and GNU time for the benchmarks. Idempotent: installs only what is missing.
set -euo pipefail
need=()
command -v tmux >/dev/null 2>&1 || need+=(tmux)
command -v dbus-daemon >/dev/null 2>&1 || need+=(dbus-daemon)
command -v dbus-send >/dev/null 2>&1 || need+=(dbus-bin)
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v git >/dev/null 2>&1 || need+=(git)
[ -x /usr/bin/time ] || need+=(time)   # GNU time: the benchmarks' peak RSS
command -v npm >/dev/null 2>&1 || need+=(npm)
command -v curl >/dev/null 2>&1 || need+=(curl)                 # the local npm registry (release-test.sh)
command -v wine64 >/dev/null 2>&1 || [ -x /usr/lib/wine/wine64 ] || need+=(wine64)   # the Windows leg (wine-test.sh)
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || need+=(gcc-mingw-w64-x86-64-win32)  # its ProcessPrng stub
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "deps: apt-get install ${need[*]}" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >&2
  else
    echo "deps: missing ${need[*]}: install them with your package manager" >&2
    exit 1
  fi
fi
version=${CC_E2E_VERSION:-2.1.332}
prefix=${CC_E2E_CACHE:-$HOME/.cache/cc-e2e}/$version
if [ -z "${CC_E2E_CLAUDE:-}" ] && ! ls "$prefix"/node_modules/@anthropic-ai/claude-code-linux-*/claude >/dev/null 2>&1; then
  echo "deps: npm install @anthropic-ai/claude-code@$version into $prefix" >&2
  mkdir -p "$prefix"
  npm install --no-audit --no-fund --loglevel=error --prefix "$prefix" "@anthropic-ai/claude-code@$version" >&2
fi
# ccstatusline (pinned), the peer status line the end-to-end tests wrap and run beside zoneline
# (e2e/peer_test.go): into its own cache prefix, never globally.
ccs_version=${CCSTATUSLINE_VERSION:-2.2.30}
ccs_prefix=${CC_E2E_CACHE:-$HOME/.cache/cc-e2e}/ccstatusline-$ccs_version
if [ ! -f "$ccs_prefix/node_modules/ccstatusline/dist/ccstatusline.js" ]; then
  echo "deps: npm install ccstatusline@$ccs_version into $ccs_prefix" >&2
  mkdir -p "$ccs_prefix"
  npm install --no-audit --no-fund --loglevel=error --prefix "$ccs_prefix" "ccstatusline@$ccs_version" >&2
fi
