#!/usr/bin/env bash
# The Windows leg: zoneline's Windows build under Wine (Debian's Wine 8).
#   1. the unit tests of the packages that do not need Unix, built for windows/amd64 and run
#      with `go test -exec wine64` (ZONELINE_TEST_WINE=1: see internal/testtmp);
#   2. a round trip of zoneline.exe with Windows' own places (%APPDATA%, %LOCALAPPDATA%,
#      %USERPROFILE%\.claude): statusline, hook, install, uninstall, checkpoint.
# Wine 8 lacks ProcessPrng (bcryptprimitives.dll), which every Go 1.26 program calls at start:
# a stub that forwards to RtlGenRandom is built with mingw into the Wine prefix once.
# Run by scripts/test.sh; alone: scripts/wine-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'wine-test: %s\n' "$*"; }
die() { printf 'wine-test: FAIL: %s\n' "$*" >&2; exit 1; }

wine=$(command -v wine64 || true)
[ -n "$wine" ] || { [ -x /usr/lib/wine/wine64 ] && wine=/usr/lib/wine/wine64; }
[ -n "$wine" ] || die "wine64 is not installed (scripts/deps.sh installs it)"
command -v x86_64-w64-mingw32-gcc >/dev/null || die "x86_64-w64-mingw32-gcc is not installed (scripts/deps.sh installs it)"

export WINEPREFIX=${ZONELINE_WINEPREFIX:-$HOME/.cache/zoneline-tools/wineprefix}
export WINEDEBUG=-all ZONELINE_TEST_WINE=1
if [ ! -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
	say "a Wine prefix in $WINEPREFIX, with the ProcessPrng stub"
	mkdir -p "$WINEPREFIX"
	"$wine" cmd /c exit >/dev/null 2>&1 || true
	tmpc=$(mktemp -d)
	cat >"$tmpc/stub.c" <<'C'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
    if (!SystemFunction036(data, n)) return FALSE;
    data += n; len -= n;
  }
  return TRUE;
}
C
	x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" "$tmpc/stub.c" -ladvapi32
	rm -rf "$tmpc"
fi

# --- unit tests ----------------------------------------------------------------------------------
pkgs="./zones/ ./statusline/ ./config/ ./checkpoint/ ./install/ ./state/ ./payload/ ./transcript/ ./paths/ ./internal/testtmp/ ./internal/safetext/ ./internal/redact/ ./internal/detach/"
if [ "${ZONELINE_WINE_UNIT:-1}" != 0 ]; then
	say "GOOS=windows go test -exec wine64 $pkgs"
	# (the tests that need Unix skip themselves by name with their reason)
	GOOS=windows GOARCH=amd64 go test -count=1 -exec "$wine" $pkgs
fi

# --- a round trip of zoneline.exe --------------------------------------------------------------
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -trimpath -o "$tmp/Program Files/zoneline/zoneline.exe" ./cmd/zoneline
exe="$tmp/Program Files/zoneline/zoneline.exe"
# Windows' own places: no zoneline, XDG or CLAUDE variables, so %APPDATA%, %LOCALAPPDATA% and
# %USERPROFILE% decide (Wine sets them to C:\users\<user>\…).
run() { env -u ZONELINE_CONFIG -u ZONELINE_STATE_DIR -u CLAUDE_CONFIG_DIR -u XDG_CONFIG_HOME -u XDG_STATE_HOME "$@"; }
prof=$(run "$wine" cmd /c echo %USERPROFILE% 2>/dev/null | tr -d '\r')
local=$(run "$wine" cmd /c echo %LOCALAPPDATA% 2>/dev/null | tr -d '\r')
[ -n "$prof" ] && [ -n "$local" ] || die "Wine gives no USERPROFILE/LOCALAPPDATA"
unixpath() { run "$wine" winepath -u "$1" 2>/dev/null | tr -d '\r'; }
claude=$(unixpath "$prof\\.claude")
state=$(unixpath "$local\\zoneline\\state")
rm -rf "$claude" "$state" "$(unixpath "$prof\\AppData\\Roaming\\zoneline")"

sid=0c8f1a52-7d3e-4b6a-9f21-3e5d8c7b9a10
payload='{"session_id":"'$sid'","transcript_path":"C:\\Users\\me\\.claude\\projects\\p\\'$sid'.jsonl","cwd":"C:\\Users\\me\\Цензор","model":{"id":"claude-sonnet-4-5-20250929","display_name":"Sonnet 4.5"},"workspace":{"current_dir":"C:\\Users\\me\\Цензор"},"version":"2.1.332","context_window":{"total_input_tokens":130000,"context_window_size":200000,"current_usage":{"input_tokens":1000,"output_tokens":100,"cache_creation_input_tokens":4000,"cache_read_input_tokens":125000}}}'
line=$(printf '%s' "$payload" | run CLAUDE_CODE_SESSION_ID=$sid COLUMNS=200 "$wine" "$exe" statusline 2>&1 | tr -d '\r')
case $line in *DUMB*130k/200k*Цензор*) ;; *) die "statusline: '$line'" ;; esac
[ -f "$state/sessions/$sid/session.json" ] || die "the statusline kept no registry in %LOCALAPPDATA%\\zoneline\\state: $(ls -R "$state" 2>&1 | head)"
say "statusline: $line"

out=$(printf '{"session_id":"%s","transcript_path":"","cwd":"C:\\\\p","hook_event_name":"UserPromptSubmit","prompt":"hello"}' "$sid" |
	run CLAUDE_CODE_SESSION_ID=$sid "$wine" "$exe" hook 2>&1 | tr -d '\r')
case $out in *additionalContext*compact-prep*) ;; *) die "hook UserPromptSubmit gave no nudge after a dumb-zone render: '$out'" ;; esac
say "hook: the nudge after a dumb-zone render"

run "$wine" "$exe" install >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; die "install"; }
settings=$claude/settings.json
grep -q "'.*/Program Files/zoneline/zoneline.exe' statusline" "$settings" || { cat "$settings"; die "the status line is not quoted for Git Bash with forward slashes"; }
grep -q '"args": \[' "$settings" || { cat "$settings"; die "the hooks are not in exec form"; }
grep -q '\\\\' "$settings" && { cat "$settings"; die "a backslash in settings.json"; }
[ -f "$claude/skills/compact-prep/SKILL.md" ] || die "the /compact-prep skill is not in %USERPROFILE%\\.claude\\skills"
[ -f "$(unixpath "$prof\\AppData\\Roaming\\zoneline\\config.toml")" ] || die "no config in %APPDATA%\\zoneline"
say "install: settings, skills and config in Windows' places"

cp=$(run CLAUDE_CODE_SESSION_ID=$sid "$wine" "$exe" checkpoint path 2>&1 | tr -d '\r')
case $cp in *zoneline*state*sessions*$sid*checkpoint.md) ;; *) die "checkpoint path: '$cp'" ;; esac
run CLAUDE_CODE_SESSION_ID=$sid "$wine" "$exe" checkpoint template >"$(unixpath "$cp")" 2>"$tmp/tmpl.err" || { cat "$tmp/tmpl.err"; die "checkpoint template"; }
[ -s "$(unixpath "$cp")" ] || die "checkpoint template wrote nothing"
say "checkpoint: $cp"

run "$wine" "$exe" uninstall >"$tmp/uninstall.log" 2>&1 || { cat "$tmp/uninstall.log"; die "uninstall"; }
if grep -q zoneline "$settings" 2>/dev/null; then cat "$settings"; die "uninstall left zoneline in settings.json"; fi
say "uninstall: settings.json clean"
say ok
