package rawfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small := write("small", "hello\n")
	empty := write("empty", "")
	big := write("big", strings.Repeat("x", 5000))
	link := filepath.Join(dir, "link")
	if err := os.Symlink(small, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o700)
	tests := []struct {
		name     string
		path     string
		limit    int64
		noFollow bool
		want     string
		err      func(error) bool
	}{
		{"small", small, 100, true, "hello\n", nil},
		{"empty", empty, 100, true, "", nil},
		{"at the limit", big, 5000, true, strings.Repeat("x", 5000), nil},
		{"over the limit", big, 4999, true, "", func(err error) bool { return errors.Is(err, ErrTooLarge) }},
		{"missing", filepath.Join(dir, "nope"), 100, true, "", IsNotExist},
		{"missing folder", filepath.Join(dir, "nope", "x"), 100, false, "", func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
		{"folder", sub, 100, true, "", func(err error) bool { return errors.Is(err, ErrNotRegular) }},
		{"symlink followed", link, 100, false, "hello\n", nil},
	}
	if runtime.GOOS != "windows" {
		tests = append(tests, struct {
			name     string
			path     string
			limit    int64
			noFollow bool
			want     string
			err      func(error) bool
		}{"symlink refused", link, 100, true, "", func(err error) bool { return err != nil && !IsNotExist(err) }})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFile(tt.path, tt.limit, tt.noFollow)
			if tt.err != nil {
				if !tt.err(err) {
					t.Fatalf("err %v", err)
				}
				var pe *fs.PathError
				if !errors.As(err, &pe) || pe.Path != tt.path {
					t.Errorf("err %v does not name %s", err, tt.path)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestReadAt(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("0123456789"), 0o600)
	f, err := Open(p, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != 10 || f.Name() != p {
		t.Fatalf("size %d name %s", f.Size(), f.Name())
	}
	b := make([]byte, 4)
	if n, err := f.ReadAt(b, 3); n != 4 || err != nil || string(b) != "3456" {
		t.Fatalf("%d %v %q", n, err, b)
	}
	if n, err := f.ReadAt(b, 8); n != 2 || err != io.EOF || string(b[:n]) != "89" {
		t.Fatalf("%d %v %q", n, err, b[:n])
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil && runtime.GOOS != "windows" {
		t.Fatalf("second close: %v", err)
	}
}

func TestReadDirNames(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 300 { // more than one getdents buffer
		n := "marker-" + strings.Repeat("x", i%40) + string(rune('a'+i%26)) + "-" + string(rune('0'+i%10)) + strings.Repeat("y", i/26)
		if slices.Contains(want, n) {
			continue
		}
		want = append(want, n)
		os.WriteFile(filepath.Join(dir, n), nil, 0o600)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o700)
	want = append(want, "sub")
	got, err := ReadDirNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("got %d names, want %d", len(got), len(want))
	}
	if _, err := ReadDirNames(filepath.Join(dir, "nope")); !IsNotExist(err) {
		t.Errorf("missing: %v", err)
	}
	if _, err := ReadDirNames(filepath.Join(dir, want[0])); err == nil {
		t.Error("a file read as a folder")
	}
	if runtime.GOOS != "windows" {
		link := filepath.Join(t.TempDir(), "link")
		os.Symlink(dir, link)
		if _, err := ReadDirNames(link); err == nil {
			t.Error("a symlinked folder was followed")
		}
	}
}

func TestWriteTemp(t *testing.T) {
	dir := t.TempDir()
	defer umask(0o700)() // a umask that would strip the owner's bits: the mode is still 0600
	seen := map[string]bool{}
	for i, sync := range []bool{false, true, false} {
		p, err := WriteTemp(dir, ".session.json.tmp-", []byte("data"), 0o600, sync)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Dir(p) != dir || !strings.HasPrefix(filepath.Base(p), ".session.json.tmp-") || seen[p] {
			t.Fatalf("%d: path %s", i, p)
		}
		seen[p] = true
		b, err := os.ReadFile(p)
		if err != nil || string(b) != "data" {
			t.Fatalf("%q %v", b, err)
		}
		if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", fi.Mode())
		}
	}
	if _, err := WriteTemp(filepath.Join(dir, "nope"), "x", nil, 0o600, false); !IsNotExist(err) {
		t.Errorf("missing folder: %v", err)
	}
}

func TestIsNotExist(t *testing.T) {
	for _, tt := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{fs.ErrNotExist, true},
		{syscall.ENOENT, true},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, true},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, false},
		{errors.Join(errors.New("a"), fs.ErrNotExist), true},
		{ErrNotRegular, false},
	} {
		if got := IsNotExist(tt.err); got != tt.want {
			t.Errorf("IsNotExist(%v) = %v", tt.err, got)
		}
	}
}

func TestAppend(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "log")
	for _, s := range []string{"one\n", "two\n"} {
		if err := Append(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\n" {
		t.Fatalf("%q", b)
	}
	if fi, _ := os.Stat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	if runtime.GOOS != "windows" {
		target := filepath.Join(dir, "target")
		os.WriteFile(target, nil, 0o600)
		link := filepath.Join(dir, "link")
		os.Symlink(target, link)
		if err := Append(link, []byte("x"), 0o600); err == nil {
			t.Error("appended through a symlink")
		}
		if b, _ := os.ReadFile(target); len(b) != 0 {
			t.Errorf("target got %q", b)
		}
	}
}

func TestKind(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "f")
	os.WriteFile(f, nil, 0o600)
	link := filepath.Join(dir, "link")
	symlinked := runtime.GOOS != "windows" && os.Symlink(dir, link) == nil
	for _, tt := range []struct {
		path          string
		exists, isDir bool
	}{{dir, true, true}, {f, true, false}, {filepath.Join(dir, "nope"), false, false}} {
		if e, d, perm := Kind(tt.path); e != tt.exists || d != tt.isDir || e && !d && runtime.GOOS != "windows" && perm != 0o600 {
			t.Errorf("Kind(%s) = %v, %v, %v", tt.path, e, d, perm)
		}
	}
	if symlinked {
		if e, d, _ := Kind(link); !e || d {
			t.Errorf("a symlink to a folder: %v, %v (want a non-directory)", e, d)
		}
	}
}
