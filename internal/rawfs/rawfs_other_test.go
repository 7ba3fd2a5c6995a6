//go:build !unix

package rawfs

func umask(int) func() { return func() {} }
