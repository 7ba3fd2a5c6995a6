package hook

import "github.com/zoneline/zoneline/state"

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
