package report

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/zoneline/zoneline/transcript"
	"github.com/zoneline/zoneline/tune"
)

// bucket is one Bucket of context for one model.
type bucket struct{ turns, calls, errors, interrupts int64 }

// modelStats is one model's histogram, summed over the files a worker read.
type modelStats struct {
	buckets  []bucket
	sessions int
	ids      []string // the sessions (or files, without an id) with a turn of this model
	maxSeen  int64
}

func (m *modelStats) at(ctx int64) *bucket {
	i := int(min(ctx/Bucket, maxBuckets-1))
	if i >= len(m.buckets) {
		m.buckets = append(m.buckets, make([]bucket, i+1-len(m.buckets))...)
	}
	return &m.buckets[i]
}

// fileResult is what one file gave: its compactions (the histograms go to the worker).
type fileResult struct {
	path     string
	session  string
	read     int64
	lines    int64
	bad      int64
	huge     int64
	turns    bool
	skipped  bool // last written before Since
	vanished bool
	err      error
	comps    []Compaction
}

// worker reads files one at a time with one line buffer and one evidence scanner.
type worker struct {
	br      *bufio.Reader
	buf     []byte // lastMarker's chunk
	content []byte // a summary's message.content
	ev      transcript.EvidenceScanner
	since   time.Time
	models  map[string]*modelStats
	report  func(int64)
}

// scanFiles reads every file (transcript.EachFile: one worker per core, biggest first) and
// returns the results in the order of files and the workers (whose histograms the caller
// merges).
func scanFiles(files []string, sizes []int64, o Options) ([]fileResult, []*worker) {
	results := make([]fileResult, len(files))
	ws := transcript.EachFile(sizes, o.Workers, o.Progress, func(report func(int64)) *worker {
		return &worker{br: bufio.NewReaderSize(nil, tune.MaxLine), since: o.Since, models: map[string]*modelStats{}, report: report}
	}, func(w *worker, i int) { results[i] = w.file(files[i]) })
	return results, ws
}

// file reads one transcript. It never fails: problems are recorded in the result.
func (w *worker) file(path string) fileResult {
	r := fileResult{path: path}
	f, fi, err := transcript.OpenWhole(path)
	if f == nil {
		r.vanished, r.err = err == nil, err
		return r
	}
	defer f.Close()
	if !w.since.IsZero() && fi.ModTime().Before(w.since) {
		r.skipped = true
		return r
	}
	// Skills and actions matter only before a compaction's summary: the evidence scanner (the
	// costly part of the read) stops after the file's last compaction marker, and reads nothing
	// of a session that never compacted.
	evidenceEnd, err := lastMarker(f, w.chunk())
	if err != nil {
		r.err = err
		return r
	}
	w.br.Reset(f)
	s := fileScan{w: w, r: &r, lastCtx: -1, seen: map[string]bool{}, evidenceEnd: evidenceEnd}
	w.ev.Reset()
	var huge int64
	r.read, huge, r.err = transcript.EachLine(w.br, func(line []byte, off int64) {
		if len(bytes.TrimSpace(line)) > 0 {
			r.lines++
			s.evidence = off < s.evidenceEnd
			s.line(line)
		}
	}, w.report)
	r.huge += huge
	s.finish()
	return r
}

// fileScan is the state of one file's read.
type fileScan struct {
	w          *worker
	r          *fileResult
	lastCtx    int64  // the context of the last main-chain turn; -1 before the first
	lastModel  string // its model
	lastMsg    string // its message.id: the records of one response repeat it
	turnsSince int
	pending    *Compaction // a boundary whose summary has not come yet
	pendingEv  transcript.Evidence
	seen       map[string]bool // models with a turn in this file
	// evidenceEnd is the offset of the file's last compaction marker: lines that start after
	// it are not given to the evidence scanner (evidence false).
	evidenceEnd int64
	evidence    bool
}

var (
	usageKey      = []byte(`"usage"`)
	boundaryKey   = []byte("compact_boundary")
	summaryKey    = []byte(`"isCompactSummary":true`)
	summaryKey2   = []byte(`"isCompactSummary": true`)
	toolUseKey    = []byte(`"type":"tool_use"`)
	toolUseKey2   = []byte(`"type": "tool_use"`)
	toolResultKey = []byte(`"tool_result"`)
	isErrorKey    = []byte(`"is_error":true`)
	isErrorKey2   = []byte(`"is_error": true`)
	sidechainKey  = []byte(`"isSidechain":true`)
	sidechainKey2 = []byte(`"isSidechain": true`)
	interruptKey  = []byte("[Request interrupted by user")
)

// The markers are searched as Claude Code writes its records (no space after a colon) and with
// one space (as a JSON array re-dumped by Python is); a tool_use or is_error written otherwise
// is not counted. A raw `"is_error":true` cannot occur inside a JSON string (its quotes would be
// escaped), only as a key of the record's own objects.

// line handles one record. Every record but a compaction's boundary and summary goes to the
// evidence scanner; assistant records with usage are turns; boundaries and summaries are
// compactions; user records count tool errors and interruptions against the last turn's
// context. Markers found by a vectorised search pick the lines worth decoding.
func (s *fileScan) line(line []byte) {
	switch {
	case bytes.Contains(line, summaryKey) || bytes.Contains(line, summaryKey2):
		if s.summary(line) {
			return
		}
	case bytes.Contains(line, boundaryKey):
		if s.boundary(line) {
			return
		}
	}
	if s.evidence {
		s.w.ev.Add(line)
	}
	if bytes.Contains(line, usageKey) {
		s.assistant(line)
		return
	}
	if s.lastCtx < 0 {
		return
	}
	errs := int64(0)
	if bytes.Contains(line, toolResultKey) {
		errs = int64(bytes.Count(line, isErrorKey) + bytes.Count(line, isErrorKey2))
	}
	intr := bytes.Contains(line, interruptKey)
	if errs == 0 && !intr || bytes.Contains(line, sidechainKey) || bytes.Contains(line, sidechainKey2) {
		return
	}
	rec, ok := transcript.ParseRecord(line)
	if !ok || rec.Type != "user" || rec.Sidechain || s.before(rec.Time) {
		return
	}
	b := s.bucket()
	b.errors += errs
	if intr {
		b.interrupts++
	}
}

// before reports whether a record's time is before Since.
func (s *fileScan) before(t time.Time) bool {
	return !s.w.since.IsZero() && !t.IsZero() && t.Before(s.w.since)
}

func (s *fileScan) stats(model string) *modelStats {
	m := s.w.models[model]
	if m == nil {
		m = &modelStats{}
		s.w.models[model] = m
	}
	return m
}

func (s *fileScan) bucket() *bucket { return s.stats(s.lastModel).at(s.lastCtx) }

// assistant counts a main-chain turn (once per response) and its tool calls.
func (s *fileScan) assistant(line []byte) {
	rec, ok := transcript.ParseRecord(line)
	if !ok {
		if _, typed := leadingKind(line); typed {
			s.r.bad++
		}
		return
	}
	if s.r.session == "" {
		s.r.session = rec.SessionID
	}
	if rec.Type != "assistant" || rec.Sidechain || rec.Usage == nil || rec.Model == "" || rec.Model == transcript.SyntheticModel {
		return
	}
	if rec.MessageID == "" || rec.MessageID != s.lastMsg {
		s.lastMsg = rec.MessageID
		if s.lastModel == "" {
			s.nameModel(rec.Model)
		}
		s.lastCtx, s.lastModel = rec.Usage.Context(), rec.Model
		s.turnsSince++
		if s.before(rec.Time) {
			return
		}
		m := s.stats(rec.Model)
		m.maxSeen = max(m.maxSeen, s.lastCtx)
		if !s.seen[rec.Model] {
			s.seen[rec.Model] = true
			m.sessions++
			id := rec.SessionID
			if id == "" {
				id = s.r.path
			}
			m.ids = append(m.ids, id)
		}
		s.r.turns = true
		s.bucket().turns++
	} else if s.before(rec.Time) {
		return
	}
	if n := bytes.Count(line, toolUseKey) + bytes.Count(line, toolUseKey2); n > 0 {
		s.bucket().calls += int64(n)
	}
}

// nameModel gives the compactions that came before any turn (a file that starts with one)
// the model of the first turn after them.
func (s *fileScan) nameModel(model string) {
	if s.pending != nil && s.pending.Model == "" {
		s.pending.Model = model
	}
	for i := range s.r.comps {
		if s.r.comps[i].Model == "" {
			s.r.comps[i].Model = model
		}
	}
}

// boundary starts a compaction at a main-chain compact_boundary record; its summary may follow.
func (s *fileScan) boundary(line []byte) bool {
	rec, ok := transcript.ParseRecord(line)
	if !ok || !rec.IsCompactBoundary() || rec.Sidechain {
		return false
	}
	if s.r.session == "" {
		s.r.session = rec.SessionID
	}
	s.flush()
	c := &Compaction{Time: rec.Time, UUID: rec.UUID, Model: s.lastModel, TurnsSince: s.turnsSince}
	if cm := rec.Compaction; cm != nil {
		c.Trigger, c.PreTokens = cm.Trigger, cm.PreTokens
		if cm.PostTokens > 0 {
			post := cm.PostTokens
			c.PostTokens = &post
			if c.PreTokens > 0 {
				rec := c.PreTokens - post
				c.Reclaimed = &rec
			}
		}
	}
	s.pending, s.pendingEv = c, s.w.ev.Evidence()
	s.w.ev.Reset()
	s.turnsSince = 0
	return true
}

// summary judges the evidence before a compaction against its summary. A summary with no
// boundary before it (Claude Code 1.0.6x wrote none) is a compaction of its own.
func (s *fileScan) summary(line []byte) bool {
	s.w.content = s.w.content[:0] // a summary without content has no text
	rec, ok := transcript.ParseRecordContent(line, &s.w.content)
	if !ok || rec.Type != "user" || !rec.IsCompactSummary || rec.Sidechain {
		return false
	}
	if s.r.session == "" {
		s.r.session = rec.SessionID
	}
	if s.pending == nil {
		s.pending = &Compaction{Time: rec.Time, UUID: rec.UUID, Model: s.lastModel, TurnsSince: s.turnsSince}
		s.pendingEv = s.w.ev.Evidence()
		s.w.ev.Reset()
		s.turnsSince = 0
	}
	text := transcript.ContentText(s.w.content)
	c := s.pending
	c.Summary, c.SummaryLen = true, len([]rune(text))
	judge(c, s.pendingEv, text)
	s.pending = nil
	s.keep(c)
	return true
}

// judge fills the compaction's skills and actions, judged against the summary's text.
func judge(c *Compaction, ev transcript.Evidence, text string) {
	lower := strings.ToLower(text)
	phrases := Phrases(text)
	for _, sk := range ev.Skills {
		if sk.Restored {
			continue // re-attached by Claude Code after the compaction before: not loaded in this stretch
		}
		kept, of := Kept(sk.Body, phrases)
		c.Skills = append(c.Skills, Skill{Name: sk.Name, UUID: sk.UUID, Phrases: of, Kept: kept, Named: Named(sk.Name, lower)})
	}
	for _, a := range ev.Actions {
		c.Actions = append(c.Actions, ActionKept{Kind: a.Kind, ID: a.ID, Command: a.Command, UUID: a.UUID, Kept: KeptID(a, lower)})
	}
}

// flush keeps a compaction whose summary never came.
func (s *fileScan) flush() {
	if s.pending != nil {
		s.keep(s.pending)
		s.pending = nil
	}
	s.pendingEv = transcript.Evidence{}
}

func (s *fileScan) keep(c *Compaction) {
	if s.before(c.Time) {
		return
	}
	c.File = s.r.path
	s.r.comps = append(s.r.comps, *c)
}

func (s *fileScan) finish() {
	s.flush()
	for i := range s.r.comps {
		s.r.comps[i].Session = s.r.session
	}
}

// leadingKind reports whether line starts like a JSON object: a line that does not is a
// fragment (a half-written last line is counted as bad only when it looks like a record).
func leadingKind(line []byte) (byte, bool) {
	b := bytes.TrimSpace(line)
	if len(b) == 0 {
		return 0, false
	}
	return b[0], b[0] == '{'
}

// chunk is the worker's buffer for lastMarker.
func (w *worker) chunk() []byte {
	if w.buf == nil {
		w.buf = make([]byte, 1<<20)
	}
	return w.buf
}

// markerKeys mark a compaction (its boundary, its summary) whatever the JSON spacing.
var markerKeys = [][]byte{boundaryKey, []byte("isCompactSummary")}

// lastMarker returns the offset just past the last compaction marker in f (0: none), read in
// chunks of buf with an overlap so that no marker is cut, and rewinds f.
func lastMarker(f *os.File, buf []byte) (int64, error) {
	const overlap = 32
	var last, off int64
	for {
		n, err := f.ReadAt(buf, off)
		for _, k := range markerKeys {
			if i := bytes.LastIndex(buf[:n], k); i >= 0 {
				last = max(last, off+int64(i+len(k)))
			}
		}
		if err != nil || n < len(buf) {
			if errors.Is(err, io.EOF) || err == nil {
				err = nil
			}
			_, serr := f.Seek(0, io.SeekStart)
			return last, errors.Join(err, serr)
		}
		off += int64(n - overlap)
	}
}
