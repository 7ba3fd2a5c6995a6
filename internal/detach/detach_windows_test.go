//go:build windows

package detach

import "testing"

func TestFlags(t *testing.T) {
	if got := flags(true); got != 0x08000000|0x01000000|0x00000200|0x00000008 {
		t.Errorf("flags(true) = %#x", got)
	}
	if got := flags(false); got&createBreakawayFromJob != 0 || got&detachedProcess == 0 || got&createNoWindow == 0 || got&createNewProcessGroup == 0 {
		t.Errorf("flags(false) = %#x", got)
	}
}
