package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/zoneline/zoneline/internal/procbench"
)

// BenchmarkControl runs the floor against itself, to check the harness; each should report
// 1.00× but linked.
//   - order: a copy of the floor always run second, against the floor run first
//     (CompareInOrder): an order effect would show here (Compare swaps the order anyway).
//   - linked: the floor as the linker wrote it, against a copy of it: a binary run straight
//     from the linker's memory-mapped output starts slower, which is why Build copies.
//   - fair: a copy against a copy, first in turn (Compare), as the other benchmarks run.
func BenchmarkControl(b *testing.B) {
	floor := procbench.Build(b, "./internal/floor")
	linked := procbench.BuildAsLinked(b, "./internal/floor")
	data, err := os.ReadFile(floor)
	if err != nil {
		b.Fatal(err)
	}
	twin := filepath.Join(b.TempDir(), "floor-twin")
	if err := os.WriteFile(twin, data, 0o755); err != nil {
		b.Fatal(err)
	}
	e := env(b.TempDir())
	b.Run("order", func(b *testing.B) {
		procbench.CompareInOrder(b, runner(twin, nil, nil, e), runner(floor, nil, nil, e))
	})
	b.Run("linked", func(b *testing.B) {
		procbench.Compare(b, runner(linked, nil, nil, e), runner(floor, nil, nil, e))
	})
	b.Run("fair", func(b *testing.B) {
		procbench.Compare(b, runner(twin, nil, nil, e), runner(floor, nil, nil, e))
	})
}
