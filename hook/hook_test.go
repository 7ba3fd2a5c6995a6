package hook

import "testing"

func TestEventsHaveHandlers(t *testing.T) {
	for _, e := range Events() {
		if handlerFor(e) == nil {
			t.Errorf("%s listed without a handler", e)
		}
	}
	for _, e := range []string{"", "Stop", "Notification", "PreToolUse", "userpromptsubmit"} {
		if handlerFor(e) != nil {
			t.Errorf("%q has a handler", e)
		}
	}
}
