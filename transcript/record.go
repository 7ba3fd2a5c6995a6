// Package transcript reads Claude Code's JSONL session transcripts.
//
// A transcript (transcript_path in every payload) is one JSON object per
// line, appended to for the whole session and never rewritten in place. It
// can grow to gigabytes, so every reader here is bounded: Tail reads
// backwards from the end for the latest context size, ScanCompactions
// counts compactions incrementally from a saved offset, and Facts collects
// the mechanical facts for a PreCompact snapshot from the last few
// megabytes. ParseRecord is the per-line decoder they share with the tune
// command.
//
// Readers open the file without blocking and refuse anything that is not a
// regular file, so a FIFO or a device named as transcript_path returns an
// error at once instead of hanging the statusline.
package transcript

import "time"

// Record is the part of one transcript line that zoneline uses.
//
// Only "user", "assistant" and "system" records are fully decoded. For any
// other type (attachment, api-request-blob, file-history-snapshot, …) only
// Type is set: they carry nothing zoneline needs and can be large.
type Record struct {
	Type             string      // top-level "type": "user", "assistant", "system", "attachment", …
	Subtype          string      // system records: "compact_boundary", "turn_duration", …
	Sidechain        bool        // "isSidechain": written by a subagent, not the main conversation
	IsMeta           bool        // "isMeta": harness text such as the local-command caveat
	IsCompactSummary bool        // "isCompactSummary": the summary user record after a compaction
	UUID             string      // "uuid"
	ParentUUID       string      // "parentUuid"; empty when null
	SessionID        string      // "sessionId" (or "session_id")
	Time             time.Time   // "timestamp"; zero when missing or unparsable
	MessageID        string      // message.id; empty unless an assistant record
	Model            string      // message.model; empty unless an assistant record
	Usage            *Usage      // message.usage; nil when the record has none
	Compaction       *Compaction // compactMetadata; nil unless a compact_boundary record
}

// IsCompactBoundary reports whether r is a system record with subtype
// "compact_boundary", written when the conversation was compacted.
func (r *Record) IsCompactBoundary() bool {
	return r.Type == "system" && r.Subtype == "compact_boundary"
}

// IsCompaction reports whether r marks a main-chain compaction: a compact_boundary record, or
// (Claude Code 1.0.6x, which wrote no boundary) a compaction summary that starts a chain (no
// parentUuid). From 1.0.7x on the summary's parent is the boundary: counted once, there.
func (r *Record) IsCompaction() bool {
	if r.Sidechain {
		return false
	}
	return r.IsCompactBoundary() || r.Type == "user" && r.IsCompactSummary && r.ParentUUID == ""
}

// contextAssistant reports whether r is a main-chain assistant reply whose
// usage gives the context size.
func (r *Record) contextAssistant() bool {
	return r.Type == "assistant" && !r.Sidechain && r.Usage != nil && r.Model != SyntheticModel
}

// Usage is an assistant record's message.usage. Every value is clamped to
// [0, MaxTokens] when decoded.
type Usage struct {
	Input         int64 // input_tokens
	CacheCreation int64 // cache_creation_input_tokens
	CacheRead     int64 // cache_read_input_tokens
	Output        int64 // output_tokens
}

// Context returns the context size the reply was computed on: input plus
// cache creation plus cache read tokens, each taken as 0 if negative, the
// sum capped at MaxTokens.
func (u Usage) Context() int64 {
	return min(clampInt(u.Input)+clampInt(u.CacheCreation)+clampInt(u.CacheRead), MaxTokens)
}

// Compaction is the compactMetadata of a compact_boundary record.
type Compaction struct {
	Trigger    string    // "manual" or "auto"
	PreTokens  int64     // Claude Code's count of the context before the compaction
	PostTokens int64     // context after the compaction; 0 when not recorded (PostKnown false)
	PostKnown  bool      // postTokens was recorded (Claude Code writes it from about 2.1.100; older boundaries lack it)
	Time       time.Time // the record's timestamp; zero when missing
}

// wireRecord is the decode target: only the fields Record needs (the tags name the keys of
// record_scan.go's tables; the equivalence tests decode it with encoding/json).
type wireRecord struct {
	Type             string       `json:"type"`
	Subtype          string       `json:"subtype"`
	IsSidechain      bool         `json:"isSidechain"`
	IsMeta           bool         `json:"isMeta"`
	IsCompactSummary bool         `json:"isCompactSummary"`
	UUID             string       `json:"uuid"`
	ParentUUID       string       `json:"parentUuid"`
	SessionID        string       `json:"sessionId"`
	SessionIDSnake   string       `json:"session_id"`
	Timestamp        string       `json:"timestamp"`
	Message          wireMessage  `json:"message"`
	CompactMetadata  *wireCompact `json:"compactMetadata"`
}

type wireMessage struct {
	ID    string     `json:"id"`
	Model string     `json:"model"`
	Usage *wireUsage `json:"usage"`
	// Content, when not nil, gets message.content's raw value (Facts needs it, nobody else
	// does), so ParseRecord never copies a large tool result.
	Content *[]byte `json:"-"`
}

type wireCompact struct {
	Trigger    string   `json:"trigger"`
	PreTokens  float64  `json:"preTokens"`
	PostTokens *float64 `json:"postTokens"` // nil when absent (or null)
}

// wireUsage takes numbers as float64 so that a fractional or huge value
// clamps instead of failing the whole record.
type wireUsage struct {
	Input         float64 `json:"input_tokens"`
	CacheCreation float64 `json:"cache_creation_input_tokens"`
	CacheRead     float64 `json:"cache_read_input_tokens"`
	Output        float64 `json:"output_tokens"`
}

// ParseRecord decodes one transcript line (with or without its newline).
// It reports false for a line that is not a complete JSON object with a
// string "type", such as a half-written last line.
//
// A cheap scan finds the top-level "type" first; only user, assistant and
// system records are decoded (with jsonscan, as encoding/json would: see
// record_scan.go), and for those false also means the line is not valid
// JSON. ParseRecord never retains line.
func ParseRecord(line []byte) (Record, bool) {
	return ParseRecordContent(line, nil)
}

// ParseRecordContent is ParseRecord that also copies message.content of a user,
// assistant or system record (its raw JSON, for ContentText) into *content when content
// is not nil.
func ParseRecordContent(line []byte, content *[]byte) (Record, bool) {
	typ, ok := topLevelType(line)
	if !ok {
		return Record{}, false
	}
	switch typ {
	case "user", "assistant", "system":
	default:
		return Record{Type: typ}, true
	}
	w := wireRecord{Message: wireMessage{Content: content}}
	if !scanRecord(line, &w) {
		return Record{}, false
	}
	return recordOf(typ, &w), true
}

// recordOf builds the Record of a decoded user, assistant or system line.
func recordOf(typ string, w *wireRecord) Record {
	r := Record{
		Type:             typ, // the exact key; encoding/json matches keys case-insensitively
		Subtype:          w.Subtype,
		Sidechain:        w.IsSidechain,
		IsMeta:           w.IsMeta,
		IsCompactSummary: w.IsCompactSummary,
		UUID:             w.UUID,
		ParentUUID:       w.ParentUUID,
		SessionID:        w.SessionID,
	}
	if r.SessionID == "" {
		r.SessionID = w.SessionIDSnake
	}
	if w.Timestamp != "" {
		if t, err := time.Parse(time.RFC3339Nano, w.Timestamp); err == nil {
			r.Time = t
		}
	}
	if m := &w.Message; typ == "assistant" {
		r.MessageID, r.Model = m.ID, m.Model
		if u := m.Usage; u != nil {
			r.Usage = &Usage{
				Input:         clampFloat(u.Input),
				CacheCreation: clampFloat(u.CacheCreation),
				CacheRead:     clampFloat(u.CacheRead),
				Output:        clampFloat(u.Output),
			}
		}
	}
	if cm := w.CompactMetadata; cm != nil && r.IsCompactBoundary() {
		r.Compaction = &Compaction{Trigger: cm.Trigger, PreTokens: clampFloat(cm.PreTokens), Time: r.Time}
		if cm.PostTokens != nil {
			r.Compaction.PostTokens, r.Compaction.PostKnown = clampFloat(*cm.PostTokens), true
		}
	} else if r.IsCompactBoundary() {
		r.Compaction = &Compaction{Time: r.Time}
	}
	return r
}

func clampFloat(v float64) int64 {
	if !(v > 0) { // negative, zero or NaN
		return 0
	}
	if v >= float64(MaxTokens) {
		return MaxTokens
	}
	return int64(v)
}

func clampInt(v int64) int64 {
	return max(0, min(v, MaxTokens))
}
