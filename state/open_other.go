//go:build !unix

package state

// oNoFollow: no O_NOFOLLOW outside Unix.
const oNoFollow = 0
