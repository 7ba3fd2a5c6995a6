package install

import (
	"bytes"
	"fmt"
	"os"
	"slices"
)

// entries says how many zoneline entries a hook event lost.
func entries(n int) string {
	if n == 1 {
		return "1 zoneline entry"
	}
	return fmt.Sprintf("%d zoneline entries", n)
}

// Uninstall takes out what Install added: our statusLine (putting back the one it replaced),
// our hooks, the keys it created, the skill files it wrote when they are unchanged, and the
// record. The config and state stay unless o.Purge. Like Install, it merges again when another
// program rewrites the settings meanwhile.
func Uninstall(o Options) (*Result, error) { return retryChanged(o, uninstall) }

func uninstall(o Options) (*Result, error) {
	p, err := newPlan(o)
	if err != nil {
		return nil, err
	}
	steps := []func(*plan) error{(*plan).uninstallSkills, (*plan).uninstallConfig}
	if p.sf.doc.Root != nil {
		steps = append([]func(*plan) error{(*plan).uninstallStatusLine, (*plan).uninstallHooks, (*plan).uninstallSettings}, steps...)
	}
	if err := p.run(steps...); err != nil {
		return nil, err
	}
	if o.DryRun {
		return p.res, nil
	}
	if err := p.applyUninstall(); err != nil {
		return nil, err
	}
	return p.res, nil
}

// createdByUs reports whether install created the settings key (with no record: assume so).
func (p *plan) createdByUs(key string) bool {
	return p.rec == nil || slices.Contains(p.rec.Created, key)
}

// uninstallStatusLine takes out our statusLine, putting back the one install replaced; a wrap
// the user re-pointed since install is unwrapped as it is now, not put back as recorded.
func (p *plan) uninstallStatusLine() error {
	root, res := p.sf.doc.Root, p.res
	cur := root.Get("statusLine")
	cmd := cur.Get("command").Text()
	switch {
	case cur == nil:
		res.add("statusLine", NotFound, "not set")
	case !IsOurs(cmd, SubStatusline):
		res.add("statusLine", Kept, "not zoneline's (%s)", describe(cur))
	case p.rec != nil && p.rec.ReplacedStatus != "":
		old, err := ParseValue([]byte(p.rec.ReplacedStatus))
		if err != nil {
			return fmt.Errorf("zoneline: %s: the saved statusLine: %v", res.Record, err)
		}
		if w := Wrapped(cmd); w != "" && !unwrapsTo(cur, w, old) {
			cur.Set("command", FromValue(w))
			res.add("statusLine", Restored, "%s (unwrapped as it is now: it changed since install, so the one install replaced, %s, was not put back)", w, describe(old))
			return nil
		}
		root.Set("statusLine", old)
		res.add("statusLine", Restored, "%s", describe(old))
	case OwnFlags(cmd):
		res.add("statusLine", Kept, "zoneline with your own flags (%s)", describe(cur))
	case Wrapped(cmd) != "":
		// Ours wrapping theirs, written by hand (no record of what it replaced): theirs stays.
		cur.Set("command", FromValue(Wrapped(cmd)))
		res.add("statusLine", Restored, "%s (unwrapped)", Wrapped(cmd))
	default:
		res.add("statusLine", Removed, "%s", describe(cur))
		root.Delete("statusLine")
	}
	return nil
}

// unwrapsTo reports whether the statusLine cur, ours wrapping w, is old (the statusLine install
// replaced) with only its command wrapped: nothing the user changed since.
func unwrapsTo(cur *Node, w string, old *Node) bool {
	now, err := ParseValue([]byte(cur.Raw()))
	if err != nil || now.Kind != Object {
		return false
	}
	now.Set("command", FromValue(w))
	return now.Canonical() == old.Canonical()
}

// uninstallHooks takes our entries out of every hook event, and the events and the hooks key
// install created when that empties them.
func (p *plan) uninstallHooks() error {
	root, res := p.sf.doc.Root, p.res
	hooks := root.Get("hooks")
	if hooks == nil || hooks.Kind != Object {
		return nil
	}
	removed := map[string]int{}
	for i := 0; i < len(hooks.Members); i++ {
		m := hooks.Members[i]
		if m.Val.Kind != Array {
			continue
		}
		n := removeOurs(m.Val, SubHook)
		if n == 0 {
			continue
		}
		removed[m.Key] += n
		if len(m.Val.Elems) == 0 && p.createdByUs("hooks."+m.Key) {
			hooks.Members = slices.Delete(hooks.Members, i, i+1)
			i--
		}
	}
	for _, h := range Hooks {
		if n := removed[h.Event]; n > 0 {
			res.add("hook "+h.Event, Removed, "%s", entries(n))
		} else {
			res.add("hook "+h.Event, NotFound, "no zoneline entry")
		}
	}
	for ev, n := range removed {
		if !slices.ContainsFunc(Hooks, func(h HookEntry) bool { return h.Event == ev }) {
			res.add("hook "+ev, Removed, "%s", entries(n))
		}
	}
	if len(hooks.Members) == 0 && len(removed) > 0 && p.createdByUs("hooks") {
		root.Delete("hooks")
	}
	return nil
}

// uninstallSettings works out the settings file's new bytes: nothing (removed) or the
// whitespace it held when install created its content, the backup's own bytes when the
// document is back to the backup's, else the edited document; and the diff.
func (p *plan) uninstallSettings() error {
	root, rec, sf := p.sf.doc.Root, p.rec, p.sf
	newData := p.sf.doc.Bytes()
	if len(root.Members) == 0 && rec != nil && (rec.SettingsCreated || rec.SettingsEmpty != nil) {
		if rec.SettingsEmpty != nil {
			newData = []byte(*rec.SettingsEmpty)
		} else {
			newData = nil // the file did not exist: remove it
		}
	}
	// Back to what the backup holds? Then write the backup's own bytes: install re-encoded
	// the containers it touched, and this puts their original layout back too.
	if newData != nil {
		if b, err := readLimited(sf.path+BackupSuffix, settingsMax); err == nil {
			if bd, err := Parse(p.o.Settings, b); err == nil && bd.Root != nil && bd.Root.Canonical() == root.Canonical() {
				newData = b
			}
		}
	}
	p.newData = newData
	p.changed = !bytes.Equal(newData, sf.data) || (newData == nil && rec != nil && rec.SettingsCreated)
	if p.changed {
		p.res.Diff = UnifiedDiff(diffName(p.o.Settings, true, "a"), diffName(p.o.Settings, newData != nil, "b"), sf.data, newData)
	}
	return nil
}

// uninstallConfig reports what becomes of the config and the state dir: removed with Purge,
// else kept.
func (p *plan) uninstallConfig() error {
	for _, it := range [...]struct{ item, path string }{{"config", p.o.Config}, {"state", p.o.StateDir}} {
		if it.path == "" {
			continue
		}
		_, err := os.Lstat(it.path)
		switch {
		case err != nil:
			p.res.add(it.item, NotFound, "%s", it.path)
		case p.o.Purge:
			p.res.add(it.item, Removed, "%s", it.path)
		default:
			p.res.add(it.item, Kept, "%s (--purge removes it)", it.path)
		}
	}
	return nil
}

// removeOurs removes zoneline's entries from a hooks array, and each group it empties. It
// returns how many entries it removed.
func removeOurs(arr *Node, sub string) int {
	n := 0
	groups := arr.Elems[:0]
	for _, g := range arr.Elems {
		hs := g.Get("hooks")
		if hs == nil || hs.Kind != Array {
			groups = append(groups, g)
			continue
		}
		kept := hs.Elems[:0:0]
		for _, h := range hs.Elems {
			if EntryIsOurs(h, sub) {
				n++
				continue
			}
			kept = append(kept, h)
		}
		if len(kept) == len(hs.Elems) {
			groups = append(groups, g)
			continue
		}
		if len(kept) > 0 {
			hs.Elems = kept
			groups = append(groups, g)
		}
	}
	arr.Elems = groups
	return n
}
