package transcript

import (
	"bytes"

	"github.com/zoneline/zoneline/internal/rawfs"
)

// Context is the latest context size in a transcript, as Tail finds it.
type Context struct {
	Tokens       int64  // context tokens: input + cache creation + cache read of the last reply, or postTokens of a later compaction
	Output       int64  // output tokens of that reply; 0 when FromBoundary
	Model        string // message.model of that reply; empty when FromBoundary
	FromBoundary bool   // Tokens is the postTokens of a compaction with no reply since
	Found        bool   // Tokens is meaningful
	// Torn: the file's last line is not a whole record (a line being written, cut without its
	// newline); it was skipped.
	Torn     bool
	Boundary bool // the search reached a compaction (Record.IsCompaction) before any reply: nothing has been answered since (Found is false if it recorded no postTokens)
}

// Tail returns the latest context size recorded in the transcript at path:
// the usage of the last main-chain assistant reply after the last
// compaction, or, when a compaction is newer than every reply, the
// compaction's postTokens. It is the statusline's fallback when the payload
// carries no token count.
//
// Tail reads backwards from the end, at most maxBytes (DefaultTailBytes if
// maxBytes <= 0), and stops at the first answer, so its cost does not grow
// with the file. Sidechain (subagent) records, assistant records without
// usage and synthetic ones are skipped, as are lines that do not parse
// (a half-written last line) and a line cut by the maxBytes window. Finding
// nothing is not an error: Found is false.
func Tail(path string, maxBytes int64) (Context, error) {
	c, _, err := TailWith(path, maxBytes, nil)
	return c, err
}

// TailWith is Tail that also reports whether the line of the reply it settles on contains
// needle (the Stop hook's check that the turn's reply is on disk: Claude Code writes the
// transcript behind the hooks). With a nil needle, has is false.
func TailWith(path string, maxBytes int64, needle []byte) (c Context, has bool, err error) {
	if maxBytes <= 0 {
		maxBytes = DefaultTailBytes
	}
	f, size, err := openRegular(path)
	if err != nil {
		return Context{}, false, err
	}
	defer f.Close()
	br := backReader{f: f, lo: max(0, size-maxBytes), pos: size, chunk: tailFirstChunk}
	torn, first := false, true
	for {
		line, ok, err := br.prev()
		if err != nil {
			return Context{}, false, err
		}
		if !ok {
			return Context{Torn: torn}, false, nil
		}
		rec, ok := ParseRecord(line)
		if first {
			// The bytes after the last newline (none when the file ends with one): a whole
			// record written without its newline parses; anything else is being written.
			torn, first = len(line) > 0 && !ok, false
		}
		if !ok {
			continue
		}
		if c, done := contextFrom(&rec); done {
			c.Torn = torn
			return c, needle != nil && !c.Boundary && bytes.Contains(line, needle), nil
		}
	}
}

// contextFrom returns the context a record settles, if it settles one.
func contextFrom(r *Record) (Context, bool) {
	switch {
	case r.IsCompaction():
		c := Context{Boundary: true}
		if r.Compaction != nil && r.Compaction.PostTokens > 0 {
			c.Tokens, c.FromBoundary, c.Found = r.Compaction.PostTokens, true, true
		}
		return c, true
	case r.contextAssistant():
		return Context{Tokens: r.Usage.Context(), Output: r.Usage.Output, Model: r.Model, Found: true}, true
	}
	return Context{}, false
}

// backReader yields the lines of f[lo:pos] from the last to the first.
type backReader struct {
	f     *rawfs.File
	lo    int64  // lowest offset that may be read
	pos   int64  // file offset of buf[0]
	buf   []byte // buf[:n] holds the bytes [pos, pos+n) not yet returned
	n     int
	chunk int64 // size of the next read; doubles
}

// prev returns the previous line without its newline. It reports false
// when no complete line is left in the window: a line that starts before lo
// is never returned. The line is valid until the next call.
func (br *backReader) prev() ([]byte, bool, error) {
	for {
		if i := bytes.LastIndexByte(br.buf[:br.n], '\n'); i >= 0 {
			line := br.buf[i+1 : br.n]
			br.n = i
			return line, true, nil
		}
		if br.pos == br.lo {
			if br.lo == 0 && br.n > 0 { // the file's first line
				line := br.buf[:br.n]
				br.n = 0
				return line, true, nil
			}
			return nil, false, nil
		}
		want := min(br.chunk, br.pos-br.lo)
		br.chunk *= 2
		nb := make([]byte, int(want)+br.n)
		copy(nb[want:], br.buf[:br.n])
		if err := readAt(br.f, nb[:want], br.pos-want); err != nil {
			return nil, false, err
		}
		br.pos -= want
		br.buf, br.n = nb, len(nb)
	}
}
