package doctor

import "strings"

// Warnings says which route runs zoneline's warning loop and whether warnings will fire, from
// the settings checks (Settings): the status line (zoneline's, plain or wrapping another) and
// the Stop hook both run it, and either alone is enough; the UserPromptSubmit hook delivers the
// nudge.
func Warnings(rs []Result) Result {
	find := func(name string) (Result, bool) {
		for _, r := range rs {
			if r.Name == name {
				return r, true
			}
		}
		return Result{}, false
	}
	r := Result{Name: "warnings"}
	if s, ok := find("settings"); ok && s.Status == Fail {
		r.Status, r.Detail, r.Fix = Fail, "will not fire: "+s.Detail, s.Fix
		return r
	}
	sl, _ := find("statusLine")
	stop, _ := find("hook Stop")
	ups, _ := find("hook UserPromptSubmit")
	viaStop := stop.Status != Fail && stop.Name != ""
	var routes []string
	if zonelineDraws(sl) {
		if strings.HasPrefix(sl.Detail, "zoneline wrapping") {
			routes = append(routes, "zoneline's status line (wrapping yours)")
		} else {
			routes = append(routes, "zoneline's status line")
		}
	}
	if viaStop {
		routes = append(routes, "the Stop hook")
	}
	switch {
	case len(routes) == 0:
		r.Status, r.Detail, r.Fix = Fail, "will not fire: neither zoneline's status line nor its Stop hook runs", "run: zoneline install (it keeps your status line and registers the Stop hook)"
	case ups.Status == Fail:
		r.Status, r.Detail, r.Fix = Warn, "markers and notifications from "+strings.Join(routes, " and ")+", but no nudge reaches the agent: the UserPromptSubmit hook is missing", "run: zoneline install"
	default:
		r.Status, r.Detail = OK, "will fire, from "+strings.Join(routes, " and ")+" (each tier once, whichever runs first)"
	}
	return r
}

// zonelineDraws reports whether the statusLine check (Settings) found zoneline's own status line,
// plain or wrapping another, and working.
func zonelineDraws(sl Result) bool {
	return sl.Status != Fail && !strings.HasPrefix(sl.Detail, "another status line")
}
