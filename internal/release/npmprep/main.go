// Command npmprep writes the package.json files of zoneline's npm packages for one version: the
// main package `zoneline` (a launcher, bin/zoneline.js, and one optional dependency per platform)
// and one package per platform (`zoneline-linux-x64`, …) that carries the two binaries.
// GoReleaser runs it as a before hook; its archives named npm-* then pack each package (the
// files under `package/`, as `npm pack` lays them out) into dist/*.tgz.
//
//	go run ./internal/release/npmprep -version 1.2.3 -out build/npm
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("npmprep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the package version (semver, as GoReleaser's .Version)")
	out := fs.String("out", "build/npm", "where to write <package>/package.json")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(stderr, "npmprep: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := Write(*out, *version); err != nil {
		fmt.Fprintln(stderr, "npmprep:", err)
		return 1
	}
	return 0
}
