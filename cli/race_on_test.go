//go:build unix && race

package cli

// raceSlack is what the race detector adds to a timed wait's bookkeeping in these tests (a 4 MiB
// tail read takes several times as long under it).
const raceSlack = 1200 // ms
