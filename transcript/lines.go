package transcript

import (
	"bufio"
	"errors"
	"io"
)

// progressEvery is how many bytes EachLine reads between progress reports.
const progressEvery = 1 << 20

// EachLine reads br to its end, one JSONL line at a time, for the readers of whole transcripts
// (tune, report): fn gets each non-empty line and the offset it starts at; a line longer than
// br's buffer is skipped whole and counted in huge (no transcript record zoneline reads is that
// long). progress, when not nil, gets the bytes read about every MiB and the rest at the end.
// It returns the bytes read and the first error other than io.EOF.
func EachLine(br *bufio.Reader, fn func(line []byte, off int64), progress func(int64)) (read, huge int64, err error) {
	var pending int64
	for {
		line, rerr := br.ReadSlice('\n')
		n := int64(len(line))
		if errors.Is(rerr, bufio.ErrBufferFull) {
			huge++
			for errors.Is(rerr, bufio.ErrBufferFull) { // skip the rest of the line
				line, rerr = br.ReadSlice('\n')
				n += int64(len(line))
			}
			line = nil
		}
		if len(line) > 0 {
			fn(line, read)
		}
		read += n
		if pending += n; pending >= progressEvery && progress != nil {
			progress(pending)
			pending = 0
		}
		if rerr != nil {
			if !errors.Is(rerr, io.EOF) {
				err = rerr
			}
			break
		}
	}
	if progress != nil && pending > 0 {
		progress(pending)
	}
	return read, huge, err
}
