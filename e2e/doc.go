// Package e2e is zoneline's end-to-end harness: it runs the real Claude Code
// CLI interactively in tmux against a local mock of the Anthropic Messages API
// (mock/mock_anthropic.py, Python stdlib only, loopback only), with a
// throwaway HOME, and lets a Go test type prompts, script the token usage the
// mock reports, read the pane (with or without colours) and read every request
// the mock received.
//
// The tests run only when ZONELINE_E2E=1, so `go test ./...` stays fast:
//
//	ZONELINE_E2E=1 go test ./e2e/ -v
//
// With ZONELINE_E2E=1 they need tmux, python3 and Claude Code; a missing tool
// fails the test rather than skipping it. Claude Code is the native binary of
// the npm package @anthropic-ai/claude-code@2.1.332, installed on first use
// into ~/.cache/cc-e2e/<version> (CC_E2E_CACHE, CC_E2E_VERSION override the
// place and the version; CC_E2E_CLAUDE=/path/to/claude skips the install).
// The first install downloads about 400 MB, so give `go test` a longer
// -timeout on a fresh machine.
//
// Screens (plain and ANSI), the mock's request log and the transcripts go to
// a per-test directory under t.TempDir(), or under $ZONELINE_E2E_OUT/<test>
// when that is set, where they are kept for debugging.
//
// Teardown never kills by process name: it sends Ctrl-C twice, kills the
// recorded claude PID and its descendants, runs `tmux kill-server` on the
// session's own socket and kills the mock by its PID.
package e2e
