package transcript

import "bytes"

// Scan is the result of one ScanCompactions call.
type Scan struct {
	Compactions int         // compact_boundary records in the lines read by this call
	Offset      int64       // where the next call should start
	Last        *Compaction // the last compaction read by this call; nil if none
	Reset       bool        // the file was shorter than the offset (rewritten or truncated) and was read from 0: replace any running count with Compactions instead of adding to it
	More        bool        // the maxBytes budget stopped the read before the end of the file
}

// compactMarker is a prefilter: every compact_boundary record contains
// it, whatever the JSON spacing.
var compactMarker = []byte("compact_boundary")

// ScanCompactions counts the main-chain compactions in the transcript at
// path from offset on, so that the statusline keeps a running count
// without ever re-reading the whole file: store Scan.Offset and pass it
// back next time, adding Compactions to the count (or replacing the count
// when Reset is set).
//
// It reads at most maxBytes (DefaultScanBytes if maxBytes <= 0) and only
// complete lines, so Offset is always just after a newline, except past a
// line longer than maxBytes: then Offset moves maxBytes into that line and
// later calls skip the rest of it (a piece of a line never parses as a
// record). A negative offset, or one beyond the end of the file, starts
// again from 0 with Reset set.
func ScanCompactions(path string, offset int64, maxBytes int64) (Scan, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultScanBytes
	}
	f, size, err := openRegular(path)
	if err != nil {
		return Scan{}, err
	}
	defer f.Close()
	s := Scan{Offset: offset}
	if offset < 0 || offset > size {
		offset, s.Reset = 0, true
		s.Offset = 0
	}
	n := min(maxBytes, size-offset)
	if n == 0 {
		return s, nil
	}
	buf := make([]byte, n)
	if err := readAt(f, buf, offset); err != nil {
		return Scan{}, err
	}
	s.More = offset+n < size
	end := bytes.LastIndexByte(buf, '\n')
	if end < 0 {
		if s.More { // one line longer than the budget: step into it
			s.Offset = offset + n
		}
		return s, nil
	}
	s.Offset = offset + int64(end) + 1
	for rest := buf[:end+1]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		line := rest[:i]
		rest = rest[i+1:]
		if !bytes.Contains(line, compactMarker) {
			continue
		}
		rec, ok := ParseRecord(line)
		if !ok || !rec.IsCompactBoundary() || rec.Sidechain {
			continue
		}
		s.Compactions++
		s.Last = rec.Compaction
	}
	return s, nil
}
