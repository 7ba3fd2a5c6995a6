package pipeline

import (
	"github.com/zoneline/zoneline/state"
	"github.com/zoneline/zoneline/transcript"
)

// Transcript reading bounds on the statusline's hot path.
const (
	tailBytes = 4 << 20 // the backwards tail read when the payload has no usable count
	scanBytes = 4 << 20 // the most read forward per render to count compactions
)

// countCompactions advances the session's compaction count from its saved transcript position;
// a transcript that is not the file the position was saved in (replaced, rewritten) is counted
// again from 0.
func (c *Context) countCompactions(s *state.Session, path string) {
	if path == "" {
		return
	}
	if s.Transcript != path {
		s.Transcript, s.TranscriptOffset, s.Compactions, s.Reclaimed, s.TranscriptCounted = path, 0, 0, 0, false
		s.TranscriptDev, s.TranscriptIno, s.TranscriptSum = 0, 0, 0
	}
	from := transcript.Position{Offset: s.TranscriptOffset, Dev: s.TranscriptDev, Ino: s.TranscriptIno, Sum: s.TranscriptSum}
	sc, err := transcript.ScanCompactionsFrom(path, from, scanBytes)
	if err != nil {
		return
	}
	if sc.Reset {
		s.Compactions, s.Reclaimed = 0, 0
		if s.TranscriptOffset != 0 {
			c.State.InfoLine("statusline", "transcript "+path+" is not the file counted before (replaced or rewritten): counting its compactions again")
		}
	}
	s.Compactions += sc.Compactions
	s.Reclaimed = min(s.Reclaimed+sc.Reclaimed, 1<<50)
	s.TranscriptOffset = sc.At.Offset
	s.TranscriptDev, s.TranscriptIno, s.TranscriptSum = sc.At.Dev, sc.At.Ino, sc.At.Sum
	s.TranscriptCounted = !sc.More
}
