package cli

import "runtime/debug"

// Version is stamped at build time: -ldflags "-X github.com/zoneline/zoneline/cli.Version=v1.2.3"
// (install.sh, the release build). A binary built by `go install module/cmd/zoneline@v1.2.3`
// is not stamped; its version is the module's, read from the build info.
var Version = "dev"

// version is Version, or the module version `go install …@version` recorded.
func version() string {
	if Version != "dev" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return Version
}
