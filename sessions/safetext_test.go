package sessions

import (
	"strings"
	"testing"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/termcolor"
)

// TestRenderSanitizes: a project dir, pane or zone from a payload or the environment reaches
// the table with no control, C1 or bidi rune.
func TestRenderSanitizes(t *testing.T) {
	now := time.Now()
	es := []Entry{}
	e := Entry{}
	e.ID = "11111111-2222-4333-8444-555555555555"
	e.Project = "/home/u/evil\x1b]0;PWNED\x07\u202eproj\u009b2J"
	e.Pane = "%1\x1b[2J\u2066"
	e.Zone = "dumb\u0085"
	e.Updated = now
	es = append(es, e)
	var b strings.Builder
	if err := Render(&b, es, now, termcolor.Ascii); err != nil {
		t.Fatal(err)
	}
	for _, r := range b.String() {
		if safetext.Unsafe(r) && r != '\n' {
			t.Fatalf("Render printed %U in %q", r, b.String())
		}
	}
	if !strings.Contains(b.String(), "evil]0;PWNEDproj2J") {
		t.Errorf("table %q", b.String())
	}
}
