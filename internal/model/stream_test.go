package model

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// fillRows is a render function: sample (u, v, k) of an outW x b output
// gets a value of its own.
func fillRows(outW, b int) func(u0, u1 int, dst []float32) error {
	return func(u0, u1 int, dst []float32) error {
		for i := range dst {
			dst[i] = float32(u0*outW*b + i)
		}
		return nil
	}
}

// slowSink collects the rows it is given, taking delay per call, and checks
// that a call's rows do not change while it runs (the band being written is
// never the one being rendered) and that calls never overlap.
type slowSink struct {
	delay   time.Duration
	failAt  int // the call (from 1) that fails; 0: none
	panicAt int // the call (from 1) that panics; 0: none
	got     []float32
	written atomic.Int64 // samples written (len(got), for other goroutines)
	calls   atomic.Int32
	busy    atomic.Bool
	errs    []string
}

var errDiskGone = errors.New("disk gone")

func (s *slowSink) WriteRows(d []float32) error {
	if !s.busy.CompareAndSwap(false, true) {
		s.errs = append(s.errs, "WriteRows called while another call runs")
	}
	defer s.busy.Store(false)
	n := int(s.calls.Add(1))
	if n == s.panicAt {
		panic("sink broke")
	}
	in := slices.Clone(d)
	time.Sleep(s.delay)
	if !slices.Equal(in, d) {
		s.errs = append(s.errs, fmt.Sprintf("call %d: rows changed while being written", n))
	}
	if n == s.failAt {
		return errDiskGone
	}
	s.got = append(s.got, d...)
	s.written.Add(int64(len(d)))
	return nil
}

// StreamRows gives a slow sink the same rows as rendering the whole output
// at once, reports progress in order after each write, and holds two
// bands.
func TestStreamRowsMatchesSequential(t *testing.T) {
	for _, tc := range []struct {
		name          string
		limit         string // OMNIHSR_MEM_LIMIT: sets the band height
		outH, outW, b int
		delay         time.Duration
	}{
		{"one band", "", 7, 5, 3, time.Millisecond},
		{"three bands", "8K", 12, 16, 2, time.Millisecond},
		{"many bands, slow sink", "8K", 101, 16, 2, 2 * time.Millisecond},
		{"many bands, fast sink", "8K", 101, 16, 2, 0},
		{"one row per band", "8K", 9, 300, 1, time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.limit != "" {
				t.Setenv("OMNIHSR_MEM_LIMIT", tc.limit)
			}
			want := make([]float32, tc.outH*tc.outW*tc.b)
			if err := fillRows(tc.outW, tc.b)(0, tc.outH, want); err != nil {
				t.Fatal(err)
			}
			sink := &slowSink{delay: tc.delay}
			var prog []int
			err := StreamRows(tc.outH, tc.outW, tc.b, fillRows(tc.outW, tc.b), sink, func(done, total int) {
				if total != tc.outH {
					t.Errorf("progress total %d, want %d", total, tc.outH)
				}
				if written := int(sink.written.Load()) / (tc.outW * tc.b); done > written {
					t.Errorf("progress %d rows with %d written", done, written)
				}
				prog = append(prog, done)
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range sink.errs {
				t.Error(e)
			}
			if !slices.Equal(sink.got, want) {
				t.Fatalf("streamed %d samples differing from the whole output's %d", len(sink.got), len(want))
			}
			rows := StripRows(tc.outW, tc.b)
			var wantProg []int
			for u := rows; u < tc.outH+rows; u += rows {
				wantProg = append(wantProg, min(u, tc.outH))
			}
			if !slices.Equal(prog, wantProg) {
				t.Errorf("progress %v, want %v", prog, wantProg)
			}
		})
	}
}

// The first error ends the stream: a failed write stops the rendering, a
// failed render stops the writing, and no write runs after StreamRows
// returns; a panic of the sink reaches the caller.
func TestStreamRowsErrors(t *testing.T) {
	t.Setenv("OMNIHSR_MEM_LIMIT", "8K")
	const outH, outW, b = 40, 64, 2 // 1 row per band
	rows := StripRows(outW, b)
	if outH/rows < 10 {
		t.Fatalf("%d rows per band: want at least 10 bands", rows)
	}
	renderFail := errors.New("render failed")
	for _, tc := range []struct {
		name       string
		failRender int // the band (from 0) whose render fails; -1: none
		failWrite  int // the write call (from 1) that fails; 0: none
		want       error
	}{
		{"write fails", -1, 3, errDiskGone},
		{"first write fails", -1, 1, errDiskGone},
		{"last write fails", -1, (outH + rows - 1) / rows, errDiskGone},
		{"render fails", 4, 0, renderFail},
		{"first render fails", 0, 0, renderFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sink := &slowSink{delay: 5 * time.Millisecond, failAt: tc.failWrite}
			var rendered int
			fill := fillRows(outW, b)
			err := StreamRows(outH, outW, b, func(u0, u1 int, dst []float32) error {
				if u0/rows == tc.failRender {
					return renderFail
				}
				rendered++
				return fill(u0, u1, dst)
			}, sink, nil)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			calls := sink.calls.Load()
			if sink.busy.Load() {
				t.Error("a write is under way after StreamRows returned")
			}
			time.Sleep(3 * sink.delay)
			if n := sink.calls.Load(); n != calls {
				t.Errorf("%d writes after StreamRows returned", n-calls)
			}
			switch {
			case tc.failWrite > 0:
				if calls != int32(tc.failWrite) {
					t.Errorf("%d writes, want %d (none after the failed one)", calls, tc.failWrite)
				}
				// The band rendered while the failing write ran is the last.
				if rendered > tc.failWrite+1 {
					t.Errorf("%d bands rendered after write %d failed", rendered-tc.failWrite, tc.failWrite)
				}
			default:
				if int(calls) > tc.failRender {
					t.Errorf("%d writes, want at most the %d bands rendered before the failure", calls, tc.failRender)
				}
			}
			for _, e := range sink.errs {
				t.Error(e)
			}
		})
	}
	t.Run("sink panics", func(t *testing.T) {
		sink := &slowSink{panicAt: 2}
		defer func() {
			if r := recover(); r != "sink broke" {
				t.Errorf("recovered %v, want the sink's panic", r)
			}
			if sink.busy.Load() {
				t.Error("a write is under way after the panic")
			}
		}()
		_ = StreamRows(outH, outW, b, fillRows(outW, b), sink, nil)
		t.Error("no panic")
	})
}

// The band after the first is rendered while the first is written: the
// first write waits for that render to begin.
func TestStreamRowsOverlaps(t *testing.T) {
	t.Setenv("OMNIHSR_MEM_LIMIT", "8K")
	const outH, outW, b = 24, 16, 2
	rows := StripRows(outW, b)
	second := make(chan struct{})
	var once atomic.Bool
	fill := fillRows(outW, b)
	render := func(u0, u1 int, dst []float32) error {
		if u0 == rows && once.CompareAndSwap(false, true) {
			close(second)
		}
		return fill(u0, u1, dst)
	}
	var got []float32
	sink := sinkFunc(func(d []float32) error {
		if len(got) == 0 {
			select {
			case <-second:
			case <-time.After(10 * time.Second):
				return errors.New("the second band was not rendered while the first was written")
			}
		}
		got = append(got, d...)
		return nil
	})
	if err := StreamRows(outH, outW, b, render, sink, nil); err != nil {
		t.Fatal(err)
	}
	if len(got) != outH*outW*b {
		t.Errorf("wrote %d samples, want %d", len(got), outH*outW*b)
	}
}

type sinkFunc func([]float32) error

func (f sinkFunc) WriteRows(d []float32) error { return f(d) }

// StreamRowsCut ends each band where cut says (BandEnd): at the last block
// start inside the band, else at the first within twice its rows, else
// where StripRows says; the rows are the same.
func TestStreamRowsCut(t *testing.T) {
	t.Setenv("OMNIHSR_MEM_LIMIT", "8K")
	const outH, outW, b = 30, 16, 2
	rows := StripRows(outW, b) // 4
	for _, tc := range []struct {
		name string
		cut  func(u int) int
		want [][2]int
	}{
		{"none", nil, [][2]int{{0, 4}, {4, 8}, {8, 12}, {12, 16}, {16, 20}, {20, 24}, {24, 28}, {28, 30}}},
		{"threes", func(u int) int { return u / 3 * 3 }, [][2]int{{0, 3}, {3, 6}, {6, 9}, {9, 12}, {12, 15}, {15, 18}, {18, 21}, {21, 24}, {24, 27}, {27, 30}}},
		// No block start anywhere (or a cut that breaks its contract): bands
		// of StripRows rows, the last reaching the end within twice that.
		{"one block", func(int) int { return 0 }, [][2]int{{0, 4}, {4, 8}, {8, 12}, {12, 16}, {16, 20}, {20, 24}, {24, 30}}},
		{"after the row", func(u int) int { return u + 1 }, [][2]int{{0, 4}, {4, 8}, {8, 12}, {12, 16}, {16, 20}, {20, 24}, {24, 30}}},
		// Blocks taller than a band: a band reaches the next block's
		// start within twice its rows.
		{"sixes", func(u int) int { return u / 6 * 6 }, [][2]int{{0, 6}, {6, 12}, {12, 18}, {18, 24}, {24, 30}}},
		{"nines", func(u int) int { return u / 9 * 9 }, [][2]int{{0, 4}, {4, 9}, {9, 13}, {13, 18}, {18, 22}, {22, 27}, {27, 30}}},
		{"elevens", func(u int) int { return u / 11 * 11 }, [][2]int{{0, 4}, {4, 11}, {11, 15}, {15, 22}, {22, 30}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if rows != 4 {
				t.Fatalf("%d rows per band, want 4", rows)
			}
			var bands [][2]int
			fill := fillRows(outW, b)
			render := func(u0, u1 int, dst []float32) error {
				bands = append(bands, [2]int{u0, u1})
				return fill(u0, u1, dst)
			}
			sink := &slowSink{}
			if err := StreamRowsCut(outH, outW, b, tc.cut, render, sink, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(bands, tc.want) {
				t.Errorf("bands %v, want %v", bands, tc.want)
			}
			want := make([]float32, outH*outW*b)
			_ = fill(0, outH, want)
			if !slices.Equal(sink.got, want) {
				t.Error("rows differ from the whole output's")
			}
		})
	}
}
