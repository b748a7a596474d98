package rowstream

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// fileSink writes rows as bytes to an atomicfile temporary and records
// the calls it gets.
type fileSink struct {
	f                *atomicfile.File
	rows             []int // y0 of each WriteRows call
	aborts           int
	failRows         error // returned by WriteRows when set
	failCommit       error // returned by Commit when set
	commits, written int
}

func (s *fileSink) WriteRows(data []float32, y0, n int) error {
	if s.failRows != nil {
		return s.failRows
	}
	s.rows = append(s.rows, y0)
	for _, v := range data {
		if _, err := s.f.Write([]byte{byte(v)}); err != nil {
			return err
		}
	}
	s.written += n
	return nil
}

func (s *fileSink) Commit() error {
	s.commits++
	if s.failCommit != nil {
		return s.failCommit
	}
	return s.f.Commit()
}

func (s *fileSink) Abort() {
	s.aborts++
	s.f.Abort()
}

func TestLifecycle(t *testing.T) {
	const h, w, b = 3, 2, 2
	row := make([]float32, w*b)
	rows := func(k int) []float32 { return make([]float32, k*w*b) }
	errSink := errors.New("disk on fire")
	type step struct {
		op      string // "write", "commit", "abort"
		data    []float32
		wantErr string // "" = no error
	}
	for _, tc := range []struct {
		name       string
		failRows   error
		failCommit error
		steps      []step
		published  bool // the file exists at the end
		aborts     int  // calls of the sink's Abort
		rows       int  // Rows() at the end
	}{
		{name: "all rows, one call", steps: []step{{op: "write", data: rows(3)}, {op: "commit"}}, published: true, rows: 3},
		{name: "rows one at a time and none", steps: []step{
			{op: "write", data: row}, {op: "write", data: nil}, {op: "write", data: rows(2)}, {op: "commit"}, {op: "commit"}, {op: "abort"},
		}, published: true, rows: 3},
		{name: "error after commit", steps: []step{
			{op: "write", data: rows(3)}, {op: "commit"},
			{op: "write", data: row, wantErr: "test: write out.bin: rows written after Commit"},
			{op: "commit"},
		}, published: true, rows: 3},
		{name: "abort twice", steps: []step{
			{op: "write", data: row}, {op: "abort"}, {op: "abort"},
			{op: "write", data: row, wantErr: "test: write out.bin: the writer was aborted"},
			{op: "commit", wantErr: "test: write out.bin: the writer was aborted"},
		}, aborts: 1, rows: 1},
		{name: "short rows", steps: []step{
			{op: "write", data: row[:3], wantErr: "test: write out.bin: 3 values are not whole rows of 2 pixels x 2 bands"},
			{op: "write", data: row, wantErr: "3 values are not whole rows"},
			{op: "commit", wantErr: "3 values are not whole rows"},
			{op: "abort"},
		}, aborts: 1},
		{name: "rows past the end", steps: []step{
			{op: "write", data: rows(2)},
			{op: "write", data: rows(2), wantErr: "test: write out.bin: 2 more rows after 2 of 3"},
			{op: "commit", wantErr: "2 more rows after 2 of 3"},
		}, aborts: 1, rows: 2},
		{name: "rows missing at commit", steps: []step{
			{op: "write", data: rows(2)},
			{op: "commit", wantErr: "test: write out.bin: only 2 of 3 rows were written"},
			{op: "abort"},
		}, aborts: 1, rows: 2},
		{name: "sink error is wrapped and sticky", failRows: errSink, steps: []step{
			{op: "write", data: row, wantErr: "test: write out.bin: disk on fire"},
			{op: "write", data: row, wantErr: "disk on fire"},
		}, aborts: 1},
		{name: "commit error as it is", failCommit: errSink, steps: []step{
			{op: "write", data: rows(3)},
			{op: "commit", wantErr: "disk on fire"},
			{op: "commit", wantErr: "disk on fire"},
			{op: "abort"},
		}, aborts: 1, rows: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.bin")
			f, err := atomicfile.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			sink := &fileSink{f: f, failRows: tc.failRows, failCommit: tc.failCommit}
			s := New("test", "out.bin", h, w, b, sink)
			for i, st := range tc.steps {
				var err error
				switch st.op {
				case "write":
					err = s.WriteRows(st.data)
				case "commit":
					err = s.Commit()
				case "abort":
					s.Abort()
				}
				switch {
				case st.wantErr == "" && err != nil:
					t.Fatalf("step %d (%s): %v", i, st.op, err)
				case st.wantErr != "" && (err == nil || !strings.Contains(err.Error(), st.wantErr)):
					t.Fatalf("step %d (%s): error %v, want one containing %q", i, st.op, err, st.wantErr)
				}
			}
			if s.Rows() != tc.rows {
				t.Errorf("Rows() = %d, want %d", s.Rows(), tc.rows)
			}
			if sink.aborts != tc.aborts {
				t.Errorf("the sink was aborted %d times, want %d", sink.aborts, tc.aborts)
			}
			if sink.written != s.Rows() {
				t.Errorf("the sink got %d rows, Rows() = %d", sink.written, s.Rows())
			}
			for i, y0 := range sink.rows {
				if i > 0 && y0 <= sink.rows[i-1] {
					t.Errorf("rows given at y0 = %v, not in order", sink.rows)
				}
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			want := []string(nil)
			if tc.published {
				want = []string{"out.bin"}
			}
			if strings.Join(names, ",") != strings.Join(want, ",") {
				t.Errorf("directory holds %q, want %q (no temporary left)", names, want)
			}
			if tc.published {
				if fi, err := os.Stat(path); err != nil || fi.Size() != h*w*b {
					t.Errorf("published file: %v, %v; want %d bytes", fi, err, h*w*b)
				}
			}
		})
	}
}

// TestAbortedIs checks that the error of an aborted writer matches
// ErrAborted.
func TestAbortedIs(t *testing.T) {
	f, err := atomicfile.Create(filepath.Join(t.TempDir(), "x"))
	if err != nil {
		t.Fatal(err)
	}
	s := New("test", "x", 1, 1, 1, &fileSink{f: f})
	s.Abort()
	if err := s.Commit(); !errors.Is(err, ErrAborted) {
		t.Errorf("Commit after Abort: %v, want ErrAborted", err)
	}
}
