// Command zoneline is Claude Code's statusLine and hook command.
package main

import (
	"os"

	"github.com/zoneline/zoneline/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
