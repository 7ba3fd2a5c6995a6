package safetext

import "github.com/zoneline/zoneline/internal/redact"

// Field is the one function every outside string (a payload's cwd or model id, a transcript's
// command or skill name, a repository's branch, a wrapped command's output, the environment)
// passes through before it is placed into a template, a terminal line or text for the agent:
// credentials redacted (redact.String), then folded to one line and sanitized (Clip: line
// breaks, tabs and every unsafe rune gone, spaces folded, ends trimmed) and cut to n runes with
// "…" (n <= 0: no cut). Redaction comes first, so a cut never leaves half a secret behind, and
// folding comes before the string reaches a template, so no value can open a line of its own
// there ("\n## Next" in a cwd stays inside the cwd's line).
func Field(s string, n int) string {
	return Clip(redact.String(s), n)
}
