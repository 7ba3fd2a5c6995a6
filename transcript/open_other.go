//go:build !unix

package transcript

import "os"

// openFlags: outside Unix there are no FIFOs to block on in open; the
// regular-file check in openRegular still applies.
const openFlags = os.O_RDONLY
