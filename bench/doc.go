// Package bench holds zoneline's whole-process benchmarks: the built binaries run as Claude Code
// runs them (a fresh process per render, stdin piped), side by side with the floor program
// (internal/floor), reporting the ratio "x-floor" and peak RSS.
//
//	go test ./bench -run '^$' -bench . -benchtime 200x
package bench
