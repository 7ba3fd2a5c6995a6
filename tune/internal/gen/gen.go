// Package gen writes synthetic Claude Code transcripts for tune's tests and benchmarks.
//
// The records follow the shapes of Claude Code 2.1.332 (testdata/claude-code): compact JSON
// with no spaces after colons, as the real CLI writes it, and the same line mix per turn: a
// prompt, attachments (one large), request bookkeeping (api-request-shape, api-request-blob,
// api-request), one to three assistant records sharing a message.id (each repeating the
// usage), a large tool result, stop-hook and turn-duration records, and the small mode and
// snapshot records. A script of events fixes the numbers tune must find; Corpus makes a large
// random corpus for speed measurements.
package gen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Kind is what an Event writes.
type Kind int

// Event kinds.
const (
	Turn    Kind = iota // one assistant response with usage, and the records around it
	Compact             // a compact_boundary record and the summary after it
)

// Event is one step of a session script.
type Event struct {
	Kind      Kind
	Context   int64  // Turn: context tokens (input + cache creation + cache read)
	Model     string // Turn: message.model; "" = the Session's model
	Sidechain bool   // Turn: written by a subagent (isSidechain true)
	Dups      int    // Turn: extra assistant records with the same message.id (text + tool_use)
	Trigger   string // Compact: "auto" or "manual"
	Pre, Post int64  // Compact: preTokens and postTokens
}

// Session is one transcript file.
type Session struct {
	ID     string        // sessionId; "" = derived from Seed
	Model  string        // default message.model
	Start  time.Time     // first timestamp; zero = 2026-11-01T09:00:00Z
	Step   time.Duration // time between turns; 0 = 90 s
	Events []Event
	Seed   uint64 // filler contents
	// FillerScale multiplies the size of the large filler records (tool results, attachments,
	// request shapes); 0 = 1.
	FillerScale float64
}

// Writer writes records of one session.
type Writer struct {
	w     *bufio.Writer
	rnd   *rand.Rand
	s     Session
	now   time.Time
	msg   int
	uuid  int
	buf   []byte
	scale float64
}

// Write writes the session s to w.
func Write(w io.Writer, s Session) error {
	if s.ID == "" {
		s.ID = uuidFrom(s.Seed, 0xfeed)
	}
	if s.Start.IsZero() {
		s.Start = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	}
	if s.Step == 0 {
		s.Step = 90 * time.Second
	}
	scale := s.FillerScale
	if scale <= 0 {
		scale = 1
	}
	g := &Writer{w: bufio.NewWriterSize(w, 64<<10), rnd: rand.New(rand.NewPCG(s.Seed, 0x5eed)), s: s, now: s.Start, scale: scale}
	g.small()
	for i, ev := range s.Events {
		switch ev.Kind {
		case Turn:
			g.turn(i, ev)
		case Compact:
			g.compact(ev)
		}
		g.now = g.now.Add(s.Step)
	}
	return g.w.Flush()
}

// WriteFile writes the session s to path, creating its folder.
func WriteFile(path string, s Session) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := Write(f, s); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Turns returns a script of turns whose context grows by step from start, compacting
// automatically (preTokens = the context plus the output) when the next turn would reach at.
func Turns(n int, start, step, at int64) []Event {
	var evs []Event
	ctx := start
	for range n {
		if at > 0 && ctx >= at && len(evs) > 0 {
			evs = append(evs, Event{Kind: Compact, Trigger: "auto", Pre: evs[len(evs)-1].Context + 120, Post: start / 2})
			ctx = start
		}
		evs = append(evs, Event{Kind: Turn, Context: ctx})
		ctx += step
	}
	return evs
}

func (g *Writer) ts() string {
	g.now = g.now.Add(time.Duration(50+g.rnd.IntN(900)) * time.Millisecond)
	return g.now.UTC().Format("2006-01-02T15:04:05.000Z")
}

func (g *Writer) id() string {
	g.uuid++
	return uuidFrom(g.s.Seed, uint64(g.uuid))
}

func uuidFrom(seed, n uint64) string {
	r := rand.New(rand.NewPCG(seed, n))
	a, b := r.Uint64(), r.Uint64()
	return fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", uint32(a>>32), uint16(a>>16), uint16(a)&0xfff, uint16(b>>48)&0xfff, b&0xffffffffffff)
}

func (g *Writer) tail(sidechain bool) string {
	return `,"userType":"external","entrypoint":"cli","cwd":"/home/user/project","sessionId":"` + g.s.ID + `","version":"2.1.332","gitBranch":"main"}`
}

func (g *Writer) line(s string) { g.w.WriteString(s); g.w.WriteByte('\n') }

// small writes the per-prompt bookkeeping records.
func (g *Writer) small() {
	g.line(`{"type":"mode","mode":"normal","sessionId":"` + g.s.ID + `"}`)
	g.line(`{"type":"permission-mode","permissionMode":"default","sessionId":"` + g.s.ID + `"}`)
	g.line(`{"type":"atis-latch","latched":false,"sessionId":"` + g.s.ID + `"}`)
	g.line(`{"type":"file-history-snapshot","messageId":"` + g.id() + `","snapshot":{"messageId":"` + g.id() + `","trackedFileBackups":{},"timestamp":"` + g.ts() + `"},"isSnapshotUpdate":false}`)
}

// text returns n bytes of JSON-escaped filler that looks like code and tool output.
func (g *Writer) text(n int) string {
	const words = "func main() {\\n\\tfmt.Println(\\\"hello, world\\\")\\n}\\n// TODO: handle the error path\\nif err != nil {\\n\\treturn fmt.Errorf(\\\"zoneline: %w\\\", err)\\n}\\n$ go test ./... \\u2713 ok  \\tgithub.com/x/y\\t0.012s\\n"
	n = int(float64(n) * g.scale)
	g.buf = g.buf[:0]
	off := g.rnd.IntN(len(words))
	for off > 0 && words[off-1] != ' ' { // start on a word, never inside an escape
		off--
	}
	for len(g.buf) < n {
		g.buf = append(g.buf, words[off:]...)
		off = 0
	}
	b := g.buf[:n]
	for len(b) > 0 && b[len(b)-1] == '\\' { // never end inside an escape
		b = b[:len(b)-1]
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-6; i-- { // nor inside \uXXXX
		if b[i] == '\\' && i+1 < len(b) && b[i+1] == 'u' {
			b = b[:i]
			break
		}
	}
	return string(b)
}

func (g *Writer) turn(i int, ev Event) {
	model := ev.Model
	if model == "" {
		model = g.s.Model
	}
	side := strconv.FormatBool(ev.Sidechain)
	if !ev.Sidechain {
		g.small()
		g.line(`{"parentUuid":null,"isSidechain":false,"promptId":"` + g.id() + `","type":"user","message":{"role":"user","content":"` + g.text(200+g.rnd.IntN(400)) + `"},"uuid":"` + g.id() + `","timestamp":"` + g.ts() + `","permissionMode":"default","origin":{"kind":"human"},"promptSource":"typed"` + g.tail(false))
		for range 3 {
			g.line(`{"parentUuid":"` + g.id() + `","isSidechain":false,"attachment":{"type":"hook_success","hookName":"UserPromptSubmit","content":"` + g.text(300+g.rnd.IntN(1500)) + `"},"type":"attachment","uuid":"` + g.id() + `","timestamp":"` + g.ts() + `"` + g.tail(false))
		}
		g.line(`{"type":"api-request-shape","sessionId":"` + g.s.ID + `","shapeHash":"` + g.id() + `","tools":"` + g.text(12000+g.rnd.IntN(8000)) + `"}`)
		g.line(`{"type":"api-request-blob","sessionId":"` + g.s.ID + `","blob":"` + g.text(500+g.rnd.IntN(2000)) + `"}`)
		g.line(`{"type":"api-request","sessionId":"` + g.s.ID + `","id":"` + g.id() + `","timestamp":"` + g.ts() + `","querySource":"repl_main_thread","params":{"model":"` + model + `","max_tokens":32000}}`)
	}
	g.msg++
	msgID := fmt.Sprintf("msg_%016x%08d", g.s.Seed, g.msg)
	in := int64(500)
	create := min(int64(1500), max(0, ev.Context-in))
	read := max(0, ev.Context-in-create)
	if ev.Context < in {
		in, create, read = ev.Context, 0, 0
	}
	usage := `"usage":{"input_tokens":` + strconv.FormatInt(in, 10) + `,"cache_creation_input_tokens":` + strconv.FormatInt(create, 10) + `,"cache_read_input_tokens":` + strconv.FormatInt(read, 10) + `,"output_tokens":120,"output_tokens_details":{"thinking_tokens":0},"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard","cache_creation":{"ephemeral_1h_input_tokens":0,"ephemeral_5m_input_tokens":0},"inference_geo":"","iterations":[],"speed":"standard","fallback_credit":null}`
	for d := 0; d <= ev.Dups; d++ {
		content := `[{"type":"text","text":"` + g.text(200+g.rnd.IntN(800)) + `"}]`
		if d > 0 {
			content = `[{"type":"tool_use","id":"toolu_` + g.id()[:8] + `","name":"Bash","input":{"command":"go test ./...","description":"Run the tests"}}]`
		}
		g.line(`{"parentUuid":"` + g.id() + `","isSidechain":` + side + `,"message":{"model":"` + model + `","id":"` + msgID + `","type":"message","role":"assistant","content":` + content + `,"stop_reason":"end_turn","stop_sequence":null,` + usage + `,"stop_details":null},"apiBlockIndex":` + strconv.Itoa(d) + `,"requestId":"req_` + g.id()[:12] + `","requestedModel":"` + model + `","type":"assistant","uuid":"` + g.id() + `","timestamp":"` + g.ts() + `","madeBy":"model"` + g.tail(ev.Sidechain))
	}
	if ev.Sidechain {
		return
	}
	g.line(`{"parentUuid":"` + g.id() + `","isSidechain":false,"promptId":"` + g.id() + `","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_` + g.id()[:8] + `","type":"tool_result","content":"` + g.text(4000+g.rnd.IntN(40000)) + `","is_error":false}]},"uuid":"` + g.id() + `","timestamp":"` + g.ts() + `","toolUseResult":{"stdout":"ok","stderr":"","interrupted":false,"isImage":false}` + g.tail(false))
	if i%4 == 0 {
		g.line(`{"parentUuid":"` + g.id() + `","isSidechain":false,"attachment":{"type":"skill_listing","content":"` + g.text(20000+g.rnd.IntN(10000)) + `"},"type":"attachment","uuid":"` + g.id() + `","timestamp":"` + g.ts() + `"` + g.tail(false))
	}
	g.line(`{"parentUuid":"` + g.id() + `","isSidechain":false,"type":"system","subtype":"stop_hook_summary","hookCount":1,"hookInfos":[{"command":"zoneline hook","durationMs":12}],"hookErrors":[],"preventedContinuation":false,"stopReason":"","hasOutput":false,"level":"suggestion","timestamp":"` + g.ts() + `","uuid":"` + g.id() + `"` + g.tail(false))
	g.line(`{"parentUuid":"` + g.id() + `","isSidechain":false,"type":"system","subtype":"turn_duration","durationMs":` + strconv.Itoa(1000+g.rnd.IntN(60000)) + `,"messageCount":14,"timestamp":"` + g.ts() + `","uuid":"` + g.id() + `","isMeta":false` + g.tail(false))
	g.line(`{"type":"last-prompt","lastPrompt":"` + g.text(80) + `","sessionId":"` + g.s.ID + `"}`)
}

func (g *Writer) compact(ev Event) {
	g.line(`{"parentUuid":null,"logicalParentUuid":"` + g.id() + `","isSidechain":false,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","level":"info","compactMetadata":{"trigger":"` + ev.Trigger + `","preTokens":` + strconv.FormatInt(ev.Pre, 10) + `,"postTokens":` + strconv.FormatInt(ev.Post, 10) + `,"cumulativeDroppedTokens":` + strconv.FormatInt(max(0, ev.Pre-ev.Post), 10) + `,"durationMs":85,"preservedSegment":{"headUuid":"` + g.id() + `","anchorUuid":"` + g.id() + `","tailUuid":"` + g.id() + `"}},"uuid":"` + g.id() + `","timestamp":"` + g.ts() + `"` + g.tail(false))
	g.line(`{"parentUuid":"` + g.id() + `","isSidechain":false,"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. Summary: ` + g.text(3000) + `"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true,"uuid":"` + g.id() + `","timestamp":"` + g.ts() + `"` + g.tail(false))
}

// Models is the model mix of a random corpus.
var Models = []string{"claude-opus-5-5", "claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001"}

// Corpus writes random sessions under dir/projects/<project>/<session>.jsonl until about total
// bytes are written, and returns the bytes written and the number of files. The same seed
// writes the same corpus.
func Corpus(dir string, total int64, seed uint64) (written int64, files int, err error) {
	rnd := rand.New(rand.NewPCG(seed, 1))
	for written < total {
		files++
		model := Models[rnd.IntN(len(Models))]
		at := int64(167_000)
		if model == Models[0] {
			at = 967_000
		}
		turns := 20 + rnd.IntN(200)
		step := int64(3000 + rnd.IntN(9000))
		evs := Turns(turns, 15_000, step, at)
		for i := range evs { // a few sidechain turns, duplicates and manual compactions
			switch r := rnd.IntN(20); {
			case r == 0 && evs[i].Kind == Turn:
				evs[i].Sidechain = true
			case r < 6 && evs[i].Kind == Turn:
				evs[i].Dups = 1 + rnd.IntN(2)
			}
		}
		if rnd.IntN(3) == 0 && len(evs) > 10 {
			k := 5 + rnd.IntN(len(evs)-6)
			if evs[k].Kind == Turn && evs[k-1].Kind == Turn {
				evs = append(evs[:k:k], append([]Event{{Kind: Compact, Trigger: "manual", Pre: evs[k-1].Context + 120, Post: 8000}}, evs[k:]...)...)
			}
		}
		s := Session{Model: model, Events: evs, Seed: seed<<20 + uint64(files)}
		path := filepath.Join(dir, "projects", fmt.Sprintf("-home-user-project%d", files%7), s.idOrSeed()+".jsonl")
		if err := WriteFile(path, s); err != nil {
			return written, files, err
		}
		fi, err := os.Stat(path)
		if err != nil {
			return written, files, err
		}
		written += fi.Size()
	}
	return written, files, nil
}

func (s Session) idOrSeed() string {
	if s.ID != "" {
		return s.ID
	}
	return uuidFrom(s.Seed, 0xfeed)
}
