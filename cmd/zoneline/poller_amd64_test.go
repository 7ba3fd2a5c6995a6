//go:build linux && amd64

package main

import "syscall"

// sysEpollCtl is epoll_ctl's number; syscallNo reads the number of the syscall a tracee
// stopped in.
const sysEpollCtl = syscall.SYS_EPOLL_CTL

func syscallNo(r *syscall.PtraceRegs) uint64 { return r.Orig_rax }
