package transcript

import "bytes"

// Scan is the result of one ScanCompactions call.
type Scan struct {
	Compactions int         // compactions in the lines read by this call (Record.IsCompaction)
	Offset      int64       // where the next call should start
	Last        *Compaction // the last compaction read by this call; nil if none
	Reclaimed   int64       // Σ preTokens − postTokens of the compactions read that record both
	Reset       bool        // the file was read from 0 (shorter than the offset, or not the file the position was saved in): replace any running count with Compactions instead of adding to it
	More        bool        // the maxBytes budget stopped the read before the end of the file
	// At is where the next call should start, with the file's identity: pass it to
	// ScanCompactionsFrom.
	At Position
}

// Position is where a running compaction count stopped in a transcript, and which file that
// was: its device and inode numbers, and a hash of the bytes just before Offset. A transcript
// replaced by another file at the same path (a rename over it) or rewritten in place does not
// match, and is counted again from 0 instead of from the middle of a line of another file.
type Position struct {
	Offset   int64
	Dev, Ino uint64
	Sum      uint64 // FNV-1a of the positionCheck bytes before Offset (fewer near the start)
}

// positionCheck is how many bytes before a position its Sum covers: one short pread per render
// when the transcript has not grown.
const positionCheck = 64

// compactMarker and summaryMarker are a prefilter: every compact_boundary record contains the
// first, every compaction summary the second, whatever the JSON spacing.
var (
	compactMarker = []byte("compact_boundary")
	summaryMarker = []byte("isCompactSummary")
)

// ScanCompactionsFrom counts the main-chain compactions in the transcript at
// path from a saved Position on, so that the statusline keeps a running count
// without ever re-reading the whole file: store Scan.At and pass it
// back next time, adding Compactions to the count (or replacing
// the count when Reset is set). When the file at path is not the one the
// position was saved in (another device or inode, or other bytes before the
// offset), it is read from 0 with Reset set; a position without an identity
// (all zeros but the offset: saved by an older zoneline) is trusted once.
//
// It reads at most maxBytes (DefaultScanBytes if maxBytes <= 0) and only
// complete lines, so Offset is always just after a newline, except past a
// line longer than maxBytes: then Offset moves maxBytes into that line and
// later calls skip the rest of it (a piece of a line never parses as a
// record). A negative offset, or one beyond the end of the file, starts
// again from 0 with Reset set.
func ScanCompactionsFrom(path string, from Position, maxBytes int64) (Scan, error) {
	return scanCompactions(path, from, from.Dev != 0 || from.Ino != 0 || from.Sum != 0, maxBytes)
}

func scanCompactions(path string, from Position, check bool, maxBytes int64) (Scan, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultScanBytes
	}
	f, size, err := openRegular(path)
	if err != nil {
		return Scan{}, err
	}
	defer f.Close()
	dev, ino := f.ID()
	offset := from.Offset
	s := Scan{}
	if offset < 0 || offset > size || check && offset > 0 && (dev != from.Dev || ino != from.Ino) {
		offset, s.Reset = 0, true
	}
	// One read: the bytes before the offset that its Sum covers, then what is new.
	lo := max(0, offset-positionCheck)
	n := min(maxBytes, size-offset)
	buf := make([]byte, offset-lo+n)
	if err := readAt(f, buf, lo); err != nil {
		return Scan{}, err
	}
	if check && offset > 0 && !s.Reset && sum(buf[:offset-lo]) != from.Sum {
		// Another file, or this one rewritten: count it from the start.
		offset, lo, s.Reset = 0, 0, true
		n = min(maxBytes, size)
		buf = make([]byte, n)
		if err := readAt(f, buf, 0); err != nil {
			return Scan{}, err
		}
	}
	data := buf[offset-lo:]
	s.Offset = offset
	s.More = offset+n < size
	end := bytes.LastIndexByte(data, '\n')
	switch {
	case end >= 0:
		s.Offset = offset + int64(end) + 1
	case s.More: // one line longer than the budget: step into it
		s.Offset = offset + n
	}
	s.At = Position{Offset: s.Offset, Dev: dev, Ino: ino, Sum: sum(buf[max(0, s.Offset-positionCheck)-lo : s.Offset-lo])}
	if end < 0 {
		return s, nil
	}
	for line := range bytes.Lines(data[:end+1]) {
		if !bytes.Contains(line, compactMarker) && !bytes.Contains(line, summaryMarker) {
			continue
		}
		rec, ok := ParseRecord(line)
		if !ok || !rec.IsCompaction() {
			continue
		}
		s.Compactions++
		s.Last = rec.Compaction
		if s.Last == nil { // a 1.0.6x summary: when, and nothing else
			s.Last = &Compaction{Time: rec.Time}
		}
		if c := rec.Compaction; c != nil && c.PostKnown && c.PreTokens > c.PostTokens && c.PostTokens > 0 {
			s.Reclaimed += c.PreTokens - c.PostTokens
		}
	}
	return s, nil
}

// sum is FNV-1a 64 of b.
func sum(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}
