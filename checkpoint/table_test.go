package checkpoint

import "strings"

// table is a checkpoint with just an External state table of rows.
func table(rows ...string) *Checkpoint {
	text := "# zoneline checkpoint\n## External state\n| system | identifier | applied | idempotent | verify |\n|---|---|---|---|---|\n" +
		strings.Join(rows, "\n") + "\n"
	return Parse(text)
}
