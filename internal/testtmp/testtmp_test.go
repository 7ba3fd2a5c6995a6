package testtmp

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	cases := []string{"", "1"}
	if Wine() {
		cases = []string{"1"} // t.TempDir's own cleanup fails under Wine: that is why Dir exists
	}
	for _, wine := range cases {
		t.Run("wine="+wine, func(t *testing.T) {
			t.Setenv("ZONELINE_TEST_WINE", wine)
			var dir string
			t.Run("use", func(t *testing.T) {
				dir = Dir(t)
				if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "a", "b", "f"), []byte("x"), 0o400); err != nil {
					t.Fatal(err)
				}
			})
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s is still there after the test: %v", dir, err)
			}
		})
	}
}
