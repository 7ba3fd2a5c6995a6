//go:build !race

package realworld

const raceOn = false
