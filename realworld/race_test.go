//go:build race

package realworld

// raceOn: the race detector makes every read several times slower; the corpus test samples
// fewer moments under it.
const raceOn = true
