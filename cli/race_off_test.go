//go:build unix && !race

package cli

// raceSlack is what the race detector adds to a timed wait's bookkeeping in these tests: none
// without it.
const raceSlack = 0 // ms
