package cli

import "flag"

var update = flag.Bool("update", false, "update golden files and scripts")
