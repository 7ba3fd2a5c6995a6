package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScanCompactionsFrom: a saved position resumes the count in the same file, and a file that
// is not the one it was saved in (renamed over the path, rewritten in place with other bytes
// before the offset) is counted again from 0 instead of from the middle of one of its lines.
func TestScanCompactionsFrom(t *testing.T) {
	b := boundary("auto", 190000, 3000)
	a := assistant("m1", "opus", 1, 2, 3, 4)
	three := a + b + a + b + a + b
	// Longer than three, without a compaction, and with no newline at three's length.
	other := strings.Repeat(assistant("m2", "opus", 5, 6, 7, 8), 3*len(three)/len(a)+1)
	if other[len(three)-1] == '\n' {
		t.Fatal("the other file has a newline where the first one ended: pick another filler")
	}
	p := write(t, three)
	first, err := ScanCompactionsFrom(p, Position{}, 0)
	if err != nil || first.Compactions != 3 || first.At.Offset != int64(len(three)) || first.At.Ino == 0 && first.At.Sum == 0 {
		t.Fatalf("first scan = %+v, %v", first, err)
	}

	tests := []struct {
		name      string
		prepare   func(t *testing.T) // changes the file at p
		from      Position
		wantCount int
		wantReset bool
	}{
		{"unchanged", func(*testing.T) {}, first.At, 0, false},
		{"appended", func(t *testing.T) { appendTo(t, p, a+b) }, first.At, 1, false},
		{"renamed over", func(t *testing.T) {
			q := filepath.Join(filepath.Dir(p), "other.jsonl")
			os.WriteFile(q, []byte(other), 0o600)
			if err := os.Rename(q, p); err != nil {
				t.Fatal(err)
			}
		}, first.At, 0, true},
		{"rewritten in place", func(t *testing.T) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(other)
			f.Close()
		}, first.At, 0, true},
		{"rewritten in place, one compaction", func(t *testing.T) {
			f, _ := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
			f.WriteString(other[:len(three)+7] + "\n" + b + a)
			f.Close()
		}, first.At, 1, true},
		{"an older zoneline's position (offset only) is trusted", func(t *testing.T) { appendTo(t, p, b) }, Position{Offset: first.At.Offset}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(p, []byte(three), 0o600); err != nil { // in place: same inode
				t.Fatal(err)
			}
			from := tt.from
			if tt.from == first.At { // the inode may have changed with an earlier case's rename
				s, err := ScanCompactionsFrom(p, Position{}, 0)
				if err != nil {
					t.Fatal(err)
				}
				from = s.At
			}
			tt.prepare(t)
			s, err := ScanCompactionsFrom(p, from, 0)
			if err != nil {
				t.Fatal(err)
			}
			if s.Compactions != tt.wantCount || s.Reset != tt.wantReset {
				t.Errorf("scan = %d compactions, reset %v; want %d, reset %v", s.Compactions, s.Reset, tt.wantCount, tt.wantReset)
			}
			fi, _ := os.Stat(p)
			if s.Offset != fi.Size() || s.At.Offset != s.Offset {
				t.Errorf("offset %d (at %d), want the end %d", s.Offset, s.At.Offset, fi.Size())
			}
			// The next call from s.At resumes: nothing new, no reset.
			if s2, err := ScanCompactionsFrom(p, s.At, 0); err != nil || s2.Reset || s2.Compactions != 0 || s2.At != s.At {
				t.Errorf("resumed scan = %+v, %v; want nothing new at %+v", s2, err, s.At)
			}
		})
	}
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Close()
}
