package cli

import (
	"strconv"
	"strings"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/statusline"
)

// modRowMaxWidth bounds `mod status -width`: wider than any terminal.
const modRowMaxWidth = 1000

// modRowWidth reads `zoneline mod status`'s arguments: none, or -width N (the cells the mod's
// row has, the band's bodyColumns). ok is false for anything else.
func modRowWidth(args []string) (width int, ok bool) {
	switch {
	case len(args) == 0:
		return 0, true
	case len(args) == 1 && strings.HasPrefix(args[0], "-width="):
		args = []string{"-width", strings.TrimPrefix(args[0], "-width=")}
	case len(args) != 2 || args[0] != "-width":
		return 0, false
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 || n > modRowMaxWidth {
		return 0, false
	}
	return n, true
}

// appendModRow appends the answer's "width" and "row": the mod's row (statusline.Row: the
// status line's segments and width fitting), as pieces with their colours.
func appendModRow(b []byte, v statusline.View, glyphs string, width int) []byte {
	b = jsonInt(b, "width", int64(width))
	b = append(b, `,"row":[`...)
	for i, p := range statusline.Row(v, glyphs, width) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"text":`...)
		b = jsonscan.AppendString(b, safetext.Line(p.Text))
		b = jsonStr(b, "color", p.Color)
		b = jsonBool(b, "bold", p.Bold)
		b = jsonBool(b, "dim", p.Dim)
		b = append(b, '}')
	}
	return append(b, ']')
}
