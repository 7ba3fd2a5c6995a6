package hookevent

import (
	"math"
	"time"

	"github.com/zoneline/zoneline/checkpoint"
	"github.com/zoneline/zoneline/internal/jsonscan"
)

// The resume check's files, each one key table (jsonscan.Field) that reads and writes it: the
// pending check (ResumePendingFile, resumePending) and the verdict (ResumeFile, verdictRecord;
// read back by ReadVerdict, for the status line and Verdicts). The pending file keeps the keys encoding/json gave
// it ("Next", "Recovery" with "Commands" and "Files"), so a check armed by an older zoneline is
// still read.

// maxCount bounds a count read from the files.
const maxCount = math.MaxInt32

// resumePending is ResumePendingFile.
type resumePending struct {
	N          int // the compaction whose restore armed it
	Time       time.Time
	Checkpoint string
	Snapshot   string
	Cwd        string // the session's cwd at the restore: relative files resolve against it
	Plan       bool   // plan mode was on at PreCompact: nothing is judged before ExitPlanMode
	Skip       int    // calls after the boundary made before the restore arrived (by a prompt)
	SkipID     string // the last of them, to recognise the same boundary
	Stops      int    // Stops that found nothing deciding
	Next       checkpoint.Targets
	Recovery   checkpoint.Targets
}

// verdictRecord is ResumeFile.
type verdictRecord struct {
	N       int
	Verdict string // OnPlan or OffPlan
	Call    string // the first call that decided, as text
	Next    string // the checkpoint's Next, as text
	Time    time.Time
}

type scanner = jsonscan.Scanner

var (
	pendingFields = [...]jsonscan.Field[resumePending]{
		{Key: "n", Read: func(s *scanner, p *resumePending) error { return s.Count(&p.N, maxCount) }, Write: func(b []byte, p *resumePending) []byte { return jsonscan.AppendInt(b, int64(p.N), false) }},
		{Key: "time", Read: func(s *scanner, p *resumePending) error { return s.Time(&p.Time) }, Write: func(b []byte, p *resumePending) []byte { return jsonscan.AppendTime(b, p.Time) }},
		{Key: "checkpoint", Read: func(s *scanner, p *resumePending) error { return s.String(&p.Checkpoint) }, Write: func(b []byte, p *resumePending) []byte { return jsonscan.AppendString(b, p.Checkpoint) }},
		{Key: "snapshot", Read: func(s *scanner, p *resumePending) error { return s.String(&p.Snapshot) }, Write: func(b []byte, p *resumePending) []byte { return appendText(b, p.Snapshot) }},
		{Key: "cwd", Read: func(s *scanner, p *resumePending) error { return s.String(&p.Cwd) }, Write: func(b []byte, p *resumePending) []byte { return appendText(b, p.Cwd) }},
		{Key: "plan", Read: func(s *scanner, p *resumePending) error { return s.Bool(&p.Plan) }, Write: func(b []byte, p *resumePending) []byte {
			if !p.Plan {
				return b
			}
			return append(b, "true"...)
		}},
		{Key: "skip", Read: func(s *scanner, p *resumePending) error { return s.Count(&p.Skip, maxCount) }, Write: func(b []byte, p *resumePending) []byte { return jsonscan.AppendInt(b, int64(p.Skip), true) }},
		{Key: "skip_id", Read: func(s *scanner, p *resumePending) error { return s.String(&p.SkipID) }, Write: func(b []byte, p *resumePending) []byte { return appendText(b, p.SkipID) }},
		{Key: "stops", Read: func(s *scanner, p *resumePending) error { return s.Count(&p.Stops, maxCount) }, Write: func(b []byte, p *resumePending) []byte { return jsonscan.AppendInt(b, int64(p.Stops), true) }},
		{Key: "Next", Read: func(s *scanner, p *resumePending) error { return readTargets(s, &p.Next) }, Write: func(b []byte, p *resumePending) []byte { return appendTargets(b, &p.Next) }},
		{Key: "Recovery", Read: func(s *scanner, p *resumePending) error { return readTargets(s, &p.Recovery) }, Write: func(b []byte, p *resumePending) []byte { return appendTargets(b, &p.Recovery) }},
	}
	targetsFields = [...]jsonscan.Field[checkpoint.Targets]{
		{Key: "Commands", Read: func(s *scanner, t *checkpoint.Targets) error { return readStrings(s, &t.Commands) }, Write: func(b []byte, t *checkpoint.Targets) []byte { return appendStrings(b, t.Commands) }},
		{Key: "Files", Read: func(s *scanner, t *checkpoint.Targets) error { return readStrings(s, &t.Files) }, Write: func(b []byte, t *checkpoint.Targets) []byte { return appendStrings(b, t.Files) }},
	}
	verdictFields = [...]jsonscan.Field[verdictRecord]{
		{Key: "n", Read: func(s *scanner, v *verdictRecord) error { return s.Count(&v.N, maxCount) }, Write: func(b []byte, v *verdictRecord) []byte { return jsonscan.AppendInt(b, int64(v.N), false) }},
		{Key: "verdict", Read: func(s *scanner, v *verdictRecord) error { return s.String(&v.Verdict) }, Write: func(b []byte, v *verdictRecord) []byte { return jsonscan.AppendString(b, v.Verdict) }},
		{Key: "call", Read: func(s *scanner, v *verdictRecord) error { return s.String(&v.Call) }, Write: func(b []byte, v *verdictRecord) []byte { return jsonscan.AppendString(b, v.Call) }},
		{Key: "next", Read: func(s *scanner, v *verdictRecord) error { return s.String(&v.Next) }, Write: func(b []byte, v *verdictRecord) []byte { return jsonscan.AppendString(b, v.Next) }},
		{Key: "time", Read: func(s *scanner, v *verdictRecord) error { return s.Time(&v.Time) }, Write: func(b []byte, v *verdictRecord) []byte { return jsonscan.AppendTime(b, v.Time) }},
	}
)

// readTargets reads a Targets object (null leaves it empty).
func readTargets(s *scanner, t *checkpoint.Targets) error {
	*t = checkpoint.Targets{}
	_, err := jsonscan.ReadObject(s, t, targetsFields[:])
	return err
}

// appendTargets appends a Targets object, as encoding/json wrote it (a nil list is null).
func appendTargets(b []byte, t *checkpoint.Targets) []byte {
	return jsonscan.AppendObject(b, t, targetsFields[:], "")
}

// readStrings reads an array of strings (null: nil; [] an empty list).
func readStrings(s *scanner, dst *[]string) error {
	*dst = nil
	k, err := s.Array(func() error {
		var v string
		err := s.String(&v)
		*dst = append(*dst, v)
		return err
	})
	if k == jsonscan.Present && *dst == nil {
		*dst = []string{}
	}
	return err
}

// appendStrings appends a list of strings; null for nil, as encoding/json writes it.
func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonscan.AppendString(b, v)
	}
	return append(b, ']')
}

// decode reads a pending check; any error loses it (the caller removes the file).
func (p *resumePending) decode(data []byte) error {
	return jsonscan.DecodeFields(data, p, pendingFields[:])
}

// appendJSON appends the pending check as one JSON object.
func (p *resumePending) appendJSON(b []byte) []byte {
	return jsonscan.AppendObject(b, p, pendingFields[:], "")
}
