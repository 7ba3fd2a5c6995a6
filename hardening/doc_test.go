// Package hardening is a test-only package: it builds the real zoneline binary and runs it as a
// process against hostile input (testdata/hostile and generated cases), kills it mid-write,
// races it against itself, and checks the state dir's privacy. Every case asserts the rules the
// statusline and the hooks keep: exit 0, a line (statusline) or one JSON object or nothing
// (hooks), no panic, no write outside the state dir, no hang.
package hardening
