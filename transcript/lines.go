package transcript

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
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

// EachFile reads whole transcripts (tune, report) in parallel: workers goroutines (one per core
// when workers <= 0, never more than the files) take the files biggest first, so that they
// finish together, and call read(w, i) for each file i they take, w being the goroutine's own
// worker, made by start. start's report adds the bytes a worker read to a total that progress,
// when not nil, gets with the sum of sizes (report is nil when progress is). It returns the
// workers.
func EachFile[W any](sizes []int64, workers int, progress func(read, total int64), start func(report func(int64)) W, read func(w W, i int)) []W {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	order := make([]int, len(sizes))
	var total int64
	for i := range order {
		order[i] = i
		total += sizes[i]
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] > sizes[order[b]] })
	var (
		report func(int64)
		done   atomic.Int64
		next   atomic.Int64
		wg     sync.WaitGroup
	)
	if progress != nil {
		report = func(d int64) { progress(done.Add(d), total) }
	}
	ws := make([]W, max(1, min(workers, len(sizes))))
	for k := range ws {
		w := start(report)
		ws[k] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := int(next.Add(1)) - 1; n < len(order); n = int(next.Add(1)) - 1 {
				read(w, order[n])
			}
		}()
	}
	wg.Wait()
	return ws
}

// OpenWhole opens a transcript for EachFile's read, with its file info. A file that vanished
// since it was listed gives no file and no error; one that is not regular is an error.
func OpenWhole(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
