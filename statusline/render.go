// Package statusline renders zoneline's status line. It is pure: Render gets a View and
// Options (colour profile, glyph set, layout, width) decided by the caller and returns the
// text; it reads no file and no environment.
//
// The line is made of segments (zone, tokens, bar, …), each a small type behind the segment
// interface and listed in one table (segment.go). Segments return text as spans with a style name;
// only the renderer turns styles into SGR escape codes, and with the Ascii profile it prints
// none. Widths are measured before styling. When Options.Width is set, a line that is too wide
// drops its lowest-priority segments first, then is cut with an ellipsis.
package statusline

import (
	"strings"
)

// item is one rendered segment of a line: its spans in ctx order, width, priority, group.
type item struct {
	start, end int // spans[start:end]
	w          int
	exact      bool // w is exact, else an upper bound
	priority   int
	group      group
	dropped    bool
	zone       bool // the zone segment: cut whole or to its dot, never mid-word
	// yield marks the ⚠ segment's items: its full form and, after it, its short form (short,
	// dropped until fit puts it in the full form's place).
	yield, short bool
}

// lineLayout is one line being laid out; its arrays keep a render from allocating for them.
type lineLayout struct {
	spanBuf [32]span
	itemBuf [16]item
	spans   []span
	items   []item
}

// Render returns the status line for v: the lines of o.Lines (DefaultLines when nil) joined by
// "\n", with no trailing newline. Unknown segment names are skipped, and so is a line with
// nothing to show. With o.Width > 0 each line is fitted to o.Width cells.
func Render(v View, o Options) string { return render(v, o, nil) }

// Piece is a run of a rendered line in one style ("plain", "dim", "smart", "warn", "dumb",
// "hint"), for a caller that draws the line with elements of its own (the mod's row).
type Piece struct {
	Text, Style string
}

// RenderPieces renders v as Render does (the same segments, the same width fitting) and returns
// the text as pieces in their styles, lines apart by a "\n" piece.
func RenderPieces(v View, o Options) []Piece {
	var ps []Piece
	render(v, o, &ps)
	return ps
}

func render(v View, o Options, pieces *[]Piece) string {
	// One allocation for everything a render needs (the view is reached through interfaces,
	// so it would escape anyway).
	st := &renderState{v: v}
	c := &st.c
	*c = ctx{v: &st.v, g: glyphSet(o.Glyphs), bar: o.BarWidth, east: o.EastAsian}
	if c.bar <= 0 {
		c.bar = DefaultBarWidth
	}
	c.bar = min(c.bar, MaxBarWidth)
	sep := o.Separator
	if sep == "" {
		sep = c.g.sep
	} else {
		sep = clean(sep)
	}
	lines := o.Lines
	if lines == nil {
		lines = defaultLayout[:] // collect reads the table's default line for it
	} else if len(v.Problems) > 0 && !LayoutHas(lines, "problems") {
		// Problems are never hidden: a layout without the segment gets it on its first line.
		first := append(append([]string(nil), lines[0]...), "problems")
		lines = append([][]string{first}, lines[1:]...)
	}
	r := &st.r
	*r = renderer{c: c, sep: sep, sgr: sgrTable(o.Profile), width: o.Width, pieces: pieces}
	if pieces != nil {
		r.sgr = nil
	}
	r.b.Grow(512) // a coloured default line with a problem is ~400 bytes
	l := &st.l
	for _, names := range lines {
		l.spans, l.items = l.spanBuf[:0], l.itemBuf[:0]
		r.collect(l, names)
		if len(l.items) == 0 {
			continue
		}
		limit := -1
		if r.width > 0 {
			limit = r.fit(l)
		}
		if r.lines > 0 {
			r.b.WriteByte('\n')
			if pieces != nil {
				*pieces = append(*pieces, Piece{"\n", stylePlain.String()})
			}
		}
		r.lines++
		r.emit(l, limit)
	}
	return r.b.String()
}

// defaultLayout stands for the default line (Options.Lines nil): one line whose names are nil.
var defaultLayout = [1][]string{}

// renderState is the working memory of one Render.
type renderState struct {
	v View
	c ctx
	r renderer
	l lineLayout
}

// renderer holds what is fixed for one Render call.
type renderer struct {
	c      *ctx
	sep    string
	sgr    *[numStyles]string // nil: no colour
	width  int
	b      strings.Builder
	lines  int
	pieces *[]Piece // RenderPieces: the pieces written, in their styles
}

// collect renders the enabled segments named in names (nil: the table's default line) into l,
// measuring each span quickly (exactly for ASCII and the fixed glyphs, as an upper bound for
// other text).
func (r *renderer) collect(l *lineLayout, names []string) {
	if names == nil {
		for i := range segments {
			if segments[i].Default {
				r.collectOne(l, &segments[i])
			}
		}
		return
	}
	for _, name := range names {
		if s := lookupSegment(name); s != nil {
			r.collectOne(l, s)
		}
	}
}

// collectOne renders segment s into l when it has something to show.
func (r *renderer) collectOne(l *lineLayout, s *Segment) {
	if !s.seg.enabled(r.c) {
		return
	}
	start := len(l.spans)
	l.spans = s.seg.render(r.c, l.spans)
	if !r.add(l, start, s.Priority, s.group) {
		return
	}
	l.items[len(l.items)-1].zone = s.Name == "zone"
	if sh, ok := s.seg.(shortener); ok && r.width > 0 {
		l.items[len(l.items)-1].yield = true
		start = len(l.spans)
		l.spans = sh.renderShort(r.c, l.spans)
		if r.add(l, start, s.Priority, s.group) {
			it := &l.items[len(l.items)-1]
			it.yield, it.short, it.dropped = true, true, true
		}
	}
	if t, ok := s.seg.(tailer); ok {
		start = len(l.spans)
		l.spans = t.renderTail(r.c, l.spans)
		r.add(l, start, PriorityTail, s.group)
	}
}

// add makes the spans of l from start on one item, measured; it reports false (and drops them)
// when they hold no text.
func (r *renderer) add(l *lineLayout, start, priority int, g group) bool {
	it := item{start: start, end: len(l.spans), exact: true, priority: priority, group: g}
	empty := true
	for i := start; i < it.end; i++ {
		sp := &l.spans[i]
		sp.w, sp.exact = fastWidth(sp.text, r.c.east)
		it.w += sp.w
		it.exact = it.exact && sp.exact
		empty = empty && sp.text == ""
	}
	if empty {
		l.spans = l.spans[:start]
		return false
	}
	l.items = append(l.items, it)
	return true
}

// join returns the text between two adjacent kept items: one space inside a group, else the
// separator.
func (r *renderer) join(a, b *item) string {
	if a.group != groupNone && a.group == b.group {
		return " "
	}
	return r.sep
}

// lineWidth returns the width of l's kept items and their joins, and whether it is exact.
func (r *renderer) lineWidth(l *lineLayout, sepW int, sepExact bool) (w int, exact bool) {
	exact = true
	var prev *item
	for i := range l.items {
		it := &l.items[i]
		if it.dropped {
			continue
		}
		if prev != nil {
			if j := r.join(prev, it); j == " " {
				w++
			} else {
				w += sepW
				exact = exact && sepExact
			}
		}
		w += it.w
		exact = exact && it.exact
		prev = it
	}
	return w, exact
}

// fit makes line l fit r.width: when its width (by a cheap upper bound, then exactly) is over,
// it drops unpinned items lowest priority first (the later one on a tie), and if the rest is
// still too wide it returns the width to cut the line to at emit; else -1. uniseg is only
// asked here, for text that is not ASCII or a fixed glyph, and only when the bound is over.
func (r *renderer) fit(l *lineLayout) int {
	sepW, sepExact := fastWidth(r.sep, r.c.east)
	total, exact := r.lineWidth(l, sepW, sepExact)
	if total <= r.width {
		return -1
	}
	if !exact {
		if !sepExact {
			sepW, sepExact = textWidth(r.sep, r.c.east), true
		}
		for i := range l.items {
			it := &l.items[i]
			if it.exact {
				continue
			}
			it.w, it.exact = 0, true
			for j := it.start; j < it.end; j++ {
				sp := &l.spans[j]
				if !sp.exact {
					sp.w, sp.exact = textWidth(sp.text, r.c.east), true
				}
				it.w += sp.w
			}
		}
		if total, _ = r.lineWidth(l, sepW, true); total <= r.width {
			return -1
		}
	}
	if shorten(l) { // the ⚠ segment shortens before anything is dropped
		if total, _ = r.lineWidth(l, sepW, true); total <= r.width {
			return -1
		}
	}
	save := r.yieldable(l, sepW)
	for total > r.width {
		drop := -1
		for i := range l.items {
			it := &l.items[i]
			if it.dropped || it.priority >= PriorityPinned || (it.priority >= PriorityOverProblems && total-save <= r.width) {
				continue // (the ⚠ segment is cut rather than push this one out)
			}
			if drop < 0 || it.priority <= l.items[drop].priority {
				drop = i
			}
		}
		if drop < 0 {
			return r.width
		}
		l.items[drop].dropped = true
		total, _ = r.lineWidth(l, sepW, true)
	}
	return -1
}

// shorten puts the ⚠ segment's short form in place of its full form; it reports whether it did.
func shorten(l *lineLayout) bool {
	for i := 1; i < len(l.items); i++ {
		if it := &l.items[i]; it.short && it.dropped && !l.items[i-1].dropped {
			l.items[i-1].dropped, it.dropped = true, false
			return true
		}
	}
	return false
}

// yieldable returns the cells the ⚠ segment gives up when it is cut down to its mark after a
// space (" ⚠", what emit leaves of it at least, when there is room for that).
func (r *renderer) yieldable(l *lineLayout, sepW int) int {
	save := 0
	for i := range l.items {
		if it := &l.items[i]; it.yield && !it.dropped {
			if i > 0 {
				save += sepW
			}
			save += it.w - 1 - r.markWidth()
		}
	}
	return max(save, 0)
}

// markWidth is the width of the ⚠ segment's mark.
func (r *renderer) markWidth() int { return Width(r.mark(), r.c.east) }

func (r *renderer) mark() string { return strings.TrimRight(r.c.g.problem, " ") }

// emit writes line l, styled, cut to limit cells with the ellipsis when limit >= 0 (widths are
// exact then). A styled run ends with a reset, and a line that holds any escape code ends with
// one.
func (r *renderer) emit(l *lineLayout, limit int) {
	e := emitter{b: &r.b, sgr: r.sgr, start: r.b.Len(), pieces: r.pieces}
	ellipsis := r.c.g.ellipsis
	budget, ellW := limit, 0
	if limit > 0 {
		ellW = Width(ellipsis, r.c.east)
		if ellW > limit {
			// A pane narrower than the ellipsis (1 cell, East-Asian "…" is 2): a one-cell
			// ASCII mark keeps the line from going blank.
			ellipsis, ellW = ".", 1
		}
		budget = limit - ellW
	}
	used := 0
	var prev *item
items:
	for i := range l.items {
		it := &l.items[i]
		if it.dropped {
			continue
		}
		if prev != nil {
			j := r.join(prev, it)
			if limit >= 0 { // widths only matter when cutting
				jw := 1
				if j != " " {
					jw = Width(j, r.c.east)
				}
				if it.yield && used+jw+r.markWidth()+ellW > limit {
					// No room for "· ⚠…": the ⚠ segment's mark alone, when it fits.
					if used+1+r.markWidth() <= limit {
						e.write(" ", stylePlain)
						e.write(r.mark(), styleWarn)
					} else {
						e.write(ellipsis, stylePlain)
					}
					break
				}
				if used+jw > budget {
					e.write(ellipsis, stylePlain)
					break
				}
				used += jw
			}
			e.write(j, stylePlain)
		}
		for k := it.start; k < it.end; k++ {
			sp := &l.spans[k]
			if limit >= 0 && used+sp.w > budget {
				if it.zone {
					r.cutZone(&e, sp, limit-used)
					break items
				}
				e.write(strings.TrimRight(truncateText(sp.text, budget-used, r.c.east), " "), sp.style)
				e.write(ellipsis, sp.style)
				break items
			}
			e.write(sp.text, sp.style)
			used += sp.w
		}
		prev = it
	}
	e.close()
}

// cutZone writes the zone span sp where the line is cut inside it, in room cells: the whole
// "● DUMB" when it fits (without the ellipsis: the zone word matters more than the mark that
// something follows), else its dot alone in the zone's colour, else (a 1-cell East-Asian pane)
// the ASCII dot. A zone word is never cut to "● DU…".
func (r *renderer) cutZone(e *emitter, sp *span, room int) {
	switch dot, _, _ := strings.Cut(sp.text, " "); {
	case sp.w <= room:
		e.write(sp.text, sp.style)
	case Width(dot, r.c.east) <= room:
		e.write(dot, sp.style)
	case room > 0:
		e.write(asciiDot(dot), sp.style)
	}
}

// asciiDot is the ASCII glyph set's form of the zone dot.
func asciiDot(dot string) string {
	if dot == "○" || dot == "o" {
		return "o"
	}
	return "*"
}

// emitter writes spans, opening and closing SGR runs only where the style changes.
type emitter struct {
	b       *strings.Builder
	sgr     *[numStyles]string
	cur     style
	colored bool
	start   int      // where this line starts in b
	pieces  *[]Piece // when set, each run is also kept as a piece
}

func (e *emitter) write(text string, st style) {
	if text == "" {
		return
	}
	if e.pieces != nil {
		if n := len(*e.pieces); n > 0 && (*e.pieces)[n-1].Style == st.String() && (*e.pieces)[n-1].Text != "\n" {
			(*e.pieces)[n-1].Text += text
		} else {
			*e.pieces = append(*e.pieces, Piece{text, st.String()})
		}
	}
	if e.sgr != nil && st != e.cur {
		if e.cur != stylePlain {
			e.b.WriteString(sgrReset)
		}
		if st != stylePlain {
			e.b.WriteString(e.sgr[st])
			e.colored = true
		}
		e.cur = st
	}
	e.b.WriteString(text)
}

// close ends the line with a reset when it holds any escape code.
func (e *emitter) close() {
	if e.colored && !strings.HasSuffix(e.b.String()[e.start:], sgrReset) {
		e.b.WriteString(sgrReset)
	}
	e.cur = stylePlain
}
