package transcript

import "bytes"

// DefaultEvidenceBytes is how far back from the end EvidenceSinceCompaction reads when its
// maxBytes is zero or negative: several times one context's stretch of records (the longest
// stretch between two compactions in the 46 shared real-world transcripts is 4.1 MB, for a 200k
// window), read in evidenceChunk pieces (memory stays bounded by the chunk and the longest line).
// The scanner decodes only the records that can matter, so PreCompact reads it in about 0.1 s
// of CPU (BenchmarkEvidenceSinceCompaction).
const DefaultEvidenceBytes int64 = 32 << 20

const (
	evidenceChunk   = 1 << 20
	maxEvidenceLine = 16 << 20 // longer lines are skipped, counted in EvidenceRead.LinesSkipped
)

// EvidenceRead says what EvidenceSinceCompaction read.
type EvidenceRead struct {
	Boundary     bool  // a main-chain compact_boundary was in the part read: the stretch starts after the last one
	Partial      bool  // no boundary was found and the part read did not reach the start of the file
	Bytes        int64 // bytes read
	LinesSkipped int   // lines longer than maxEvidenceLine, not read
}

// EvidenceSinceCompaction returns what the transcript at path shows loaded and done since its
// last main-chain compaction, reading at most the last maxBytes (DefaultEvidenceBytes if <= 0)
// forwards, in bounded pieces, through an EvidenceScanner that is Reset at each boundary.
func EvidenceSinceCompaction(path string, maxBytes int64) (Evidence, EvidenceRead, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultEvidenceBytes
	}
	f, size, err := openRegular(path)
	if err != nil {
		return Evidence{}, EvidenceRead{}, err
	}
	defer f.Close()
	start := max(0, size-maxBytes)
	rd := EvidenceRead{Bytes: size - start}
	var (
		s       EvidenceScanner
		content []byte
		line    []byte // the part of a line carried over from the previous chunk
		skip    = start > 0
		tooLong bool
	)
	buf := make([]byte, min(evidenceChunk, max(size-start, 1)))
	for off := start; off < size; {
		n := min(int64(len(buf)), size-off)
		if err := readAt(f, buf[:n], off); err != nil {
			return s.Evidence(), rd, err
		}
		off += n
		chunk := buf[:n]
		for len(chunk) > 0 {
			i := bytes.IndexByte(chunk, '\n')
			if i < 0 {
				if !skip && !tooLong {
					line = append(line, chunk...)
					if len(line) > maxEvidenceLine {
						tooLong, line = true, line[:0]
					}
				}
				break
			}
			part := chunk[:i]
			chunk = chunk[i+1:]
			switch {
			case skip: // the line cut by the window
				skip = false
				continue
			case tooLong:
				tooLong = false
				rd.LinesSkipped++
				continue
			}
			whole := part
			if len(line) > 0 {
				line = append(line, part...)
				whole = line
			}
			if len(whole) > maxEvidenceLine {
				rd.LinesSkipped++
			} else {
				rd.Boundary = evidenceLine(&s, whole, &content) || rd.Boundary
			}
			line = line[:0]
		}
	}
	if len(line) > 0 && !skip && !tooLong { // a last line without its newline
		rd.Boundary = evidenceLine(&s, line, &content) || rd.Boundary
	}
	rd.Partial = start > 0 && !rd.Boundary
	return s.Evidence(), rd, nil
}

// evidenceLine feeds one line to s, resetting it at a main-chain compact boundary (reported).
func evidenceLine(s *EvidenceScanner, line []byte, content *[]byte) bool {
	if bytes.Contains(line, compactBoundaryMarker) {
		if rec, ok := ParseRecordContent(line, content); ok && rec.IsCompactBoundary() && !rec.Sidechain {
			s.Reset()
			return true
		}
	}
	s.Add(line)
	return false
}
