package tune

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/zoneline/zoneline/transcript"
)

// turn is one main-chain assistant response with usage.
type turn struct {
	ctx   int64  // context tokens
	ms    int64  // unix milliseconds; 0 when the record had no timestamp
	id    uint64 // hash of message.id; 0 when the record had none
	model string // interned per file
}

// compactEvent is a compact_boundary record and its place among the file's turns.
type compactEvent struct {
	at int // how many turns of the file came before it
	c  transcript.Compaction
}

// fileResult is what one worker found in one file.
type fileResult struct {
	path      string
	size      int64
	read      int64 // bytes read
	lines     int64
	bad       int64 // candidate lines that did not parse (half-written, corrupt)
	huge      int64 // lines over MaxLine, skipped
	turns     []turn
	compacts  []compactEvent
	sessionID string
	vanished  bool  // the file was gone when its turn came
	err       error // unreadable
}

// Find returns the .jsonl files under each root (a file is taken as is), sorted, with their
// sizes. A root that does not exist is an error; problems below a root (a folder that cannot be
// listed) are returned as unreadable results so the scan goes on.
func Find(roots []string) (files []string, sizes []int64, problems []fileResult, err error) {
	seen := map[string]bool{}
	for _, root := range roots {
		fi, err := os.Stat(root)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("zoneline: %w; pass transcript files or folders, or set CLAUDE_CONFIG_DIR", err)
		}
		if !fi.IsDir() {
			if !seen[root] {
				seen[root] = true
				files, sizes = append(files, root), append(sizes, fi.Size())
			}
			continue
		}
		if real, err := filepath.EvalSymlinks(root); err == nil {
			root = real // WalkDir does not descend into a root that is a symlink (a linked ~/.claude)
		}
		walkErr := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path != root {
					problems = append(problems, fileResult{path: path, err: err})
					if d != nil && d.IsDir() {
						return fs.SkipDir
					}
					return nil
				}
				return err
			}
			if filepath.Ext(path) != ".jsonl" || seen[path] {
				return nil
			}
			if d.IsDir() { // a folder named *.jsonl: not a transcript, and not readable as one
				problems = append(problems, fileResult{path: path, err: errors.New("is a directory")})
				return fs.SkipDir
			}
			info, err := d.Info()
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil // vanished between listing and stat: never seen
				}
				problems = append(problems, fileResult{path: path, err: err})
				return nil
			}
			if !info.Mode().IsRegular() {
				return nil
			}
			seen[path] = true
			files, sizes = append(files, path), append(sizes, info.Size())
			return nil
		})
		if walkErr != nil {
			return nil, nil, nil, fmt.Errorf("zoneline: listing %s: %w", root, walkErr)
		}
	}
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return files[idx[a]] < files[idx[b]] })
	sf, ss := make([]string, len(files)), make([]int64, len(files))
	for i, j := range idx {
		sf[i], ss[i] = files[j], sizes[j]
	}
	return sf, ss, problems, nil
}

// scanFiles reads every file (transcript.EachFile: one worker per core, biggest files first)
// and returns the results in the order of files. progress, when not nil, is called from the
// workers with the bytes read so far and the total.
func scanFiles(files []string, sizes []int64, workers int, progress func(read, total int64)) []fileResult {
	results := make([]fileResult, len(files))
	transcript.EachFile(sizes, workers, progress, newWorker, func(w *worker, i int) {
		results[i] = w.file(files[i], sizes[i])
	})
	return results
}

// worker reads files one at a time with one line buffer.
type worker struct {
	br     *bufio.Reader
	seed   maphash.Seed
	report func(int64)
	models map[string]string
}

// seed is the process's maphash seed, shared so that the same message.id hashes the same in
// every worker. It is made on first use: at init, every zoneline process would pay for it.
var (
	seedOnce sync.Once
	seedVal  maphash.Seed
)

func seed() maphash.Seed {
	seedOnce.Do(func() { seedVal = maphash.MakeSeed() })
	return seedVal
}

func newWorker(report func(int64)) *worker {
	return &worker{br: bufio.NewReaderSize(nil, MaxLine), seed: seed(), report: report}
}

var (
	usageKey      = []byte(`"usage"`)
	compactMarker = []byte("compact_boundary")
)

// candidate reports whether line may hold an assistant record with usage or a
// compact_boundary record, the only records tune reads; see worker.line.
func candidate(line []byte) bool {
	if typ, ok := transcript.LeadingType(line); ok && string(typ) != "assistant" && string(typ) != "system" {
		return false
	}
	return bytes.Contains(line, usageKey) || bytes.Contains(line, compactMarker)
}

// file reads one transcript. It never fails: problems are recorded in the result.
func (w *worker) file(path string, size int64) fileResult {
	r := fileResult{path: path, size: size}
	f, _, err := transcript.OpenWhole(path)
	if f == nil {
		r.vanished, r.err = err == nil, err
		return r
	}
	defer f.Close()
	w.models = map[string]string{}
	w.br.Reset(f)
	var huge int64
	r.read, huge, r.err = transcript.EachLine(w.br, func(line []byte, _ int64) {
		r.lines++
		w.line(&r, line)
	}, w.report)
	r.huge += huge
	return r
}

// line handles one line. Only assistant records with usage and compact_boundary records
// matter. A line whose type is given early and is neither (user prompts and tool results:
// most of the bytes) is passed over after its first keys; every other line needs a fixed
// marker ("usage" or compact_boundary), found by a vectorised search, before it is decoded
// by transcript.ParseRecord. Neither shortcut can drop a record ParseRecord would accept as
// an assistant reply with usage or a compaction, except lines Claude Code never writes: an
// early "type" repeated later with another value, or a "usage" key spelt in another case or
// with escapes (encoding/json accepts both). FuzzCandidate checks the rest.
func (w *worker) line(r *fileResult, line []byte) {
	if !candidate(line) {
		return
	}
	rec, ok := transcript.ParseRecord(line)
	if !ok {
		r.bad++
		return
	}
	if r.sessionID == "" && rec.SessionID != "" {
		r.sessionID = rec.SessionID
	}
	switch {
	// A 1.0.6x compaction, marked only by its summary (transcript.Record.IsCompaction), is
	// left out on purpose: it records no trigger and no token counts to learn from.
	case rec.IsCompactBoundary():
		if rec.Sidechain || rec.Compaction == nil {
			return
		}
		r.compacts = append(r.compacts, compactEvent{at: len(r.turns), c: *rec.Compaction})
	case rec.Type == "assistant":
		if rec.Sidechain || rec.Usage == nil || rec.Model == "" || rec.Model == transcript.SyntheticModel {
			return
		}
		model, ok := w.models[rec.Model]
		if !ok {
			model = rec.Model
			w.models[model] = model
		}
		t := turn{ctx: rec.Usage.Context(), model: model}
		if rec.MessageID != "" {
			t.id = maphash.String(w.seed, rec.MessageID) | 1 // never 0
		}
		if !rec.Time.IsZero() {
			t.ms = rec.Time.UnixMilli()
		}
		r.turns = append(r.turns, t)
	}
}
