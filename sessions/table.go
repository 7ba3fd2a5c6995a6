package sessions

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/safetext"
	"github.com/zoneline/zoneline/internal/termcolor"
	"github.com/zoneline/zoneline/statusline"
	"github.com/zoneline/zoneline/zones"

	"github.com/zoneline/zoneline/notify"
)

// Columns of the table, in order.
var Columns = []string{"ZONE", "TOKENS", "TO COMPACT", "PENDING", "STATUS", "PROJECT", "PANE", "SESSION"}

// shortID is how many characters of a session id the table shows (enough for --session to be
// found by prefix; the JSON has the whole id).
const shortID = 8

// Row returns an entry's cells, plain text, in Columns order.
func Row(e Entry, now time.Time) []string {
	zone := strings.ToUpper(e.Zone)
	if zone == "" || zone == "UNKNOWN" {
		zone = "?"
	}
	tokens := "-"
	if e.Window > 0 {
		tokens = notify.Tokens(e.Tokens) + "/" + notify.Tokens(e.Window)
	}
	to := "off"
	switch {
	case e.ToCompact == 0:
		to = "due"
	case e.ToCompact > 0:
		to = notify.Tokens(e.ToCompact)
	}
	var pending []string
	if e.Marker != "" {
		pending = append(pending, e.Marker)
	}
	if e.RestorePending {
		pending = append(pending, "restore")
	}
	p := "-"
	if len(pending) > 0 {
		p = strings.Join(pending, "+")
	}
	project := filepath.Base(e.Project)
	if e.Project == "" {
		project = "-"
	}
	pane := e.Pane
	if pane == "" {
		pane = "-"
	}
	id := e.ID
	if len(id) > shortID {
		id = id[:shortID]
	}
	// Zone, marker, project, pane and id came from payloads and the environment, through the
	// registry: each cell is made one safe line.
	row := []string{zone, tokens, to, p, Status(e, now), project, pane, id}
	for i, c := range row {
		row[i] = safetext.Line(c)
	}
	return row
}

// Status says what is known of a session's life: "active 2m ago" (its last render or prompt
// within the active window), else "idle since 14:02" ("idle since Nov 28" on another day): at its
// prompt, or ended.
func Status(e Entry, now time.Time) string {
	seen := e.Seen()
	switch {
	case seen.IsZero():
		return "never seen"
	case e.Active:
		return "active " + Ago(now.Sub(seen)) + " ago"
	}
	local := seen.In(now.Location())
	if y, m, d := local.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return "idle since " + local.Format("15:04")
	}
	return "idle since " + local.Format("Jan 2")
}

// Ago formats how long ago something was seen: 5s, 3m, 2h, 4d.
func Ago(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}

// Render writes the table: a header and one row per entry, columns padded to their widest
// cell (measured before colouring). With a colour profile other than Ascii the zone cell is
// coloured as in the status line.
func Render(w io.Writer, es []Entry, now time.Time, p termcolor.Profile) error {
	rows := [][]string{Columns}
	for _, e := range es {
		rows = append(rows, Row(e, now))
	}
	width := make([]int, len(Columns))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for n, r := range rows {
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i > 0 {
				b.WriteString("  ")
			}
			if n > 0 && i == 0 {
				c = colourZone(c, es[n-1].Zone, p)
			}
			if i == len(r)-1 {
				pad = ""
			}
			b.WriteString(c + pad)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func colourZone(text, zone string, p termcolor.Profile) string {
	z, ok := zones.ParseZone(zone)
	if !ok {
		return text
	}
	return statusline.PaintZone(p, z, text)
}
