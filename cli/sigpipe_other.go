//go:build !unix

package cli

// ignoreSIGPIPE: there is no SIGPIPE here.
func ignoreSIGPIPE() {}
