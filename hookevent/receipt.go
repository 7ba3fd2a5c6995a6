package hookevent

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/zoneline/zoneline/internal/jsonscan"
	"github.com/zoneline/zoneline/state"
)

// Receipt is the last compaction as the hooks recorded it: what the mod's receipt shows.
type Receipt struct {
	Count   int    // compactions recorded by PostCompact
	Trigger string // the last one's: manual or auto
	Restore string // how its restore reached the agent: session_start, user_prompt, or "" (not yet)
	Pending bool   // its restore waits for the next prompt
}

// LastRestore reads the session's compaction state for the receipt. A session with no
// compaction answers a zero Receipt.
func LastRestore(d state.Dir, id string) (Receipt, error) {
	cs, err := loadCompactions(d, id)
	if cs == nil {
		return Receipt{}, err
	}
	r := Receipt{Count: cs.Count, Pending: cs.Pending > cs.Delivered}
	if rec := cs.Record(cs.Count); rec != nil {
		r.Trigger, r.Restore = rec.Trigger, rec.Restore
	}
	if r.Restore == "" && cs.Delivered >= cs.Count && cs.Count > 0 {
		r.Restore = "session_start"
	}
	return r, err
}

// Record is one compaction as PostCompact recorded it in compactions.json, read back for
// `zoneline report`.
type Record struct {
	N       int
	Time    time.Time
	Trigger string
	Restore string // session_start, user_prompt, or "" (not delivered)
}

// Records returns the session's recorded compactions, oldest first; ok is false when the
// session has no compaction state (zoneline recorded none for it).
func Records(d state.Dir, id string) (recs []Record, ok bool, err error) {
	path, err := compactionsPath(d, id)
	if err != nil {
		return nil, false, err
	}
	if _, err := os.Lstat(path); err != nil {
		return nil, false, nil
	}
	cs, err := loadCompactions(d, id)
	if err != nil {
		return nil, true, err
	}
	for _, r := range cs.Records {
		restore := r.Restore
		if restore == "" && cs.Delivered >= r.N && cs.Pending != r.N {
			restore = "session_start"
		}
		recs = append(recs, Record{N: r.N, Time: r.Time, Trigger: r.Trigger, Restore: restore})
	}
	return recs, true, nil
}

// Verdicts returns the resume verdicts the session's state holds, by compaction: those kept in
// compactions.json's records, the last verdict (resume.json, until the next prompt removes it)
// and every off-plan verdict whose notification was claimed (resume-notified-<n>), for state
// written before the records kept them.
func Verdicts(d state.Dir, id string) map[int]string {
	out := map[int]string{}
	dir, err := d.Session(id)
	if err != nil {
		return out
	}
	if cs, err := loadCompactions(d, id); err == nil {
		for _, r := range cs.Records {
			if r.Resume == OnPlan || r.Resume == OffPlan {
				out[r.N] = r.Resume
			}
		}
	}
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if n, err := strconv.Atoi(strings.TrimPrefix(e.Name(), resumeNotified)); err == nil && strings.HasPrefix(e.Name(), resumeNotified) {
				out[n] = OffPlan
			}
		}
	}
	if n, v := ReadVerdict(d, id); v != "" {
		out[n] = v
	}
	return out
}

// ReadVerdict returns the verdict the resume check left for the status line (ResumeFile, until
// the next prompt removes it): its compaction and OnPlan or OffPlan; "" when there is none, or
// the file does not read as one.
func ReadVerdict(d state.Dir, id string) (n int, verdict string) {
	path, err := d.SessionFile(id, ResumeFile)
	if err != nil {
		return 0, ""
	}
	data, err := state.ReadFile(path, 4096)
	if err != nil {
		return 0, ""
	}
	var v verdictRecord
	if jsonscan.DecodeFields(data, &v, verdictFields[:]) != nil || v.Verdict != OnPlan && v.Verdict != OffPlan {
		return 0, ""
	}
	return v.N, v.Verdict
}
