package state_test

import (
	"testing"

	"github.com/zoneline/zoneline/config"
	"github.com/zoneline/zoneline/state"
)

// config keeps its own spelling of the cache's name (it does not import state): the same name.
func TestConfigCacheName(t *testing.T) {
	if config.CacheFile != state.ConfigCacheName {
		t.Errorf("config.CacheFile %q, state.ConfigCacheName %q", config.CacheFile, state.ConfigCacheName)
	}
}
