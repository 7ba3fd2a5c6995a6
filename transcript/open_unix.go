//go:build unix

package transcript

import "syscall"

// openFlags opens without blocking (a FIFO with no writer would otherwise
// block in open(2)) and without acquiring a controlling terminal.
const openFlags = syscall.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY | syscall.O_CLOEXEC
