// Command gentranscripts writes a synthetic corpus of Claude Code transcripts for measuring
// `zoneline tune`:
//
//	go run ./tune/internal/gen/cmd/gentranscripts -dir /tmp/tune-corpus -size 2g
//
// The corpus lands in DIR/projects/…; point CLAUDE_CONFIG_DIR at DIR, or pass DIR/projects to
// `zoneline tune`. The same -seed writes the same bytes.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/zoneline/zoneline/tune/internal/gen"
	"github.com/zoneline/zoneline/zones"
)

func main() {
	dir := flag.String("dir", "", "output folder (required)")
	size := flag.String("size", "2g", "about how many bytes to write: 500m, 2g, …")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	n, err := zones.ParseTokens(*size) // "2g" is not a token count, but k/m suffixes read the same
	if err != nil && len(*size) > 1 && (*size)[len(*size)-1] == 'g' {
		n, err = zones.ParseTokens((*size)[:len(*size)-1] + "000m")
	}
	if *dir == "" || err != nil || n <= 0 {
		fmt.Fprintln(os.Stderr, "usage: gentranscripts -dir DIR [-size 2g] [-seed N]")
		os.Exit(2)
	}
	if n < 1<<40 && (*size)[len(*size)-1] != 'k' { // binary units read better for sizes
		n = n / 1_000_000 * (1 << 20)
	}
	start := time.Now()
	written, files, err := gen.Corpus(*dir, n, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentranscripts:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d bytes in %d files to %s in %s\n", written, files, *dir, time.Since(start).Round(time.Millisecond))
}
