package par

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestForEachVisitsEveryItemOnce(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 2}, {1, 4}, {7, 1}, {100, 3}, {5, 0}} {
		seen := make([]atomic.Int32, c.n)
		ForEach(c.n, c.workers, func(k int) { seen[k].Add(1) })
		for k := range seen {
			if v := seen[k].Load(); v != 1 {
				t.Fatalf("n=%d workers=%d: item %d visited %d times", c.n, c.workers, k, v)
			}
		}
	}
}

func TestForEachErr(t *testing.T) {
	for _, workers := range []int{1, 3, 8} {
		var ran atomic.Int32
		badWorker := atomic.Bool{}
		err := ForEachErr(1000, workers, func(w, k int) error {
			if w < 0 || w >= max(workers, 1) {
				badWorker.Store(true)
			}
			ran.Add(1)
			if k == 5 || k == 7 {
				return fmt.Errorf("item %d", k)
			}
			return nil
		})
		if err == nil || (err.Error() != "item 5" && err.Error() != "item 7") {
			t.Fatalf("workers=%d: error %v, want item 5 (or 7 when 5 was not reached)", workers, err)
		}
		if workers == 1 && err.Error() != "item 5" {
			t.Fatalf("one worker: error %v, want item 5", err)
		}
		if n := ran.Load(); n >= 1000 {
			t.Errorf("workers=%d: all %d items ran after a failure", workers, n)
		}
		if badWorker.Load() {
			t.Errorf("workers=%d: a worker index out of range", workers)
		}
	}
	if err := ForEachErr(50, 4, func(int, int) error { return nil }); err != nil {
		t.Fatal(err)
	}
	sentinel := errors.New("only")
	if err := ForEachErr(3, 2, func(_, k int) error {
		if k == 2 {
			return sentinel
		}
		return nil
	}); err != sentinel {
		t.Fatalf("error %v, want the failing item's", err)
	}
}

func TestParts(t *testing.T) {
	for _, c := range []struct{ n, minPer, workers, want int }{
		{100, 10, 4, 4}, {100, 30, 4, 3}, {100, 200, 4, 1}, {0, 1, 4, 1}, {10, 0, 4, 4}, {5, 1, 8, 5},
	} {
		if got := Parts(c.n, c.minPer, c.workers); got != c.want {
			t.Errorf("Parts(%d, %d, %d) = %d, want %d", c.n, c.minPer, c.workers, got, c.want)
		}
	}
	if got := Parts(1<<20, 1, 0); got < 1 {
		t.Errorf("Parts with GOMAXPROCS workers = %d", got)
	}
}

func TestRangesCoverInOrder(t *testing.T) {
	for _, c := range []struct{ n, parts int }{{0, 3}, {1, 1}, {10, 3}, {7, 7}, {100, 4}, {5, 0}} {
		owner := make([]atomic.Int32, c.n)
		calls := atomic.Int32{}
		Ranges(c.n, c.parts, func(part, lo, hi int) {
			calls.Add(1)
			p := max(c.parts, 1)
			if lo != part*c.n/p || hi != (part+1)*c.n/p {
				t.Errorf("n=%d parts=%d: part %d is [%d, %d)", c.n, c.parts, part, lo, hi)
			}
			for i := lo; i < hi; i++ {
				owner[i].Add(int32(part + 1))
			}
		})
		for i := range owner {
			if owner[i].Load() == 0 {
				t.Errorf("n=%d parts=%d: item %d not covered", c.n, c.parts, i)
			}
		}
		if c.n == 0 && calls.Load() > 1 {
			t.Errorf("n=0: %d calls", calls.Load())
		}
	}
}

// TestReduceFixedOrder checks that Reduce adds the parts in order: a sum
// whose float64 result depends on the order gives the sequential
// part-by-part value on every run.
func TestReduceFixedOrder(t *testing.T) {
	const n = 1 << 12
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = math.Sin(float64(i)) * math.Pow(10, float64(i%17-8))
	}
	for _, parts := range []int{1, 2, 3, 7} {
		want := 0.0
		for i := 0; i < parts; i++ {
			s := 0.0
			for _, v := range vals[i*n/parts : (i+1)*n/parts] {
				s += v
			}
			if i == 0 {
				want = s
			} else {
				want += s
			}
		}
		for run := 0; run < 20; run++ {
			got := Reduce(n, parts, 2, func(lo, hi int, acc []float64) {
				for _, v := range vals[lo:hi] {
					acc[0] += v
					acc[1]++
				}
			})
			if got[0] != want || got[1] != n {
				t.Fatalf("parts=%d run %d: sum %v count %v, want %v %d", parts, run, got[0], got[1], want, n)
			}
		}
	}
}

func TestStridedAssignment(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 3}, {1, 4}, {10, 1}, {10, 3}, {9, 9}, {4, 0}} {
		owner := make([]atomic.Int32, c.n)
		Strided(c.n, c.workers, func(w, k int) { owner[k].Add(int32(w + 1)) })
		nw := max(min(c.workers, c.n), 1)
		for k := range owner {
			if got, want := owner[k].Load(), int32(k%nw+1); got != want {
				t.Errorf("n=%d workers=%d: item %d ran on worker %d, want %d", c.n, c.workers, k, got-1, want-1)
			}
		}
	}
}

// Every part of Run runs once, and all parts run at the same time: each
// waits until all have started, which would never happen if a part waited
// for another to return.
func TestRunPartsConcurrent(t *testing.T) {
	for _, parts := range []int{0, 1, 2, 3, 8, 4*runtime.GOMAXPROCS(0) + 5} {
		var started atomic.Int32
		calls := make([]atomic.Int32, max(parts, 0))
		done := make(chan struct{})
		go func() {
			Run(parts, func(p int) {
				calls[p].Add(1)
				started.Add(1)
				for started.Load() < int32(parts) {
					runtime.Gosched()
				}
			})
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("parts=%d: Run did not return (parts not concurrent)", parts)
		}
		for p := range calls {
			if v := calls[p].Load(); v != 1 {
				t.Fatalf("parts=%d: part %d ran %d times", parts, p, v)
			}
		}
	}
}

// Helpers that have parked (no call for longer than spinFor) are woken,
// and a part that outlasts spinFor makes the caller block rather than
// spin; nested calls and calls from several goroutines at once complete.
func TestRunParkedAndNested(t *testing.T) {
	var sum atomic.Int64
	for round := range 3 {
		time.Sleep(3 * spinFor)
		Run(3, func(p int) {
			if p == 1 && round == 1 {
				time.Sleep(2 * spinFor)
			}
			sum.Add(int64(p))
		})
	}
	if got := sum.Load(); got != 9 {
		t.Fatalf("parked helpers: sum %d, want 9", got)
	}
	sum.Store(0)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				Run(3, func(p int) {
					Run(2, func(q int) { sum.Add(int64(1 + p*2 + q)) })
				})
			}
		}()
	}
	wg.Wait()
	if got, want := sum.Load(), int64(4*50*21); got != want {
		t.Fatalf("nested calls: sum %d, want %d", got, want)
	}
}

func BenchmarkRun(b *testing.B) {
	var sink [2]float64
	work := func(p, n int) {
		s := 0.0
		for i := range n {
			s += float64(i)
		}
		sink[p] += s
	}
	for _, n := range []int{0, 1000, 10000} {
		b.Run(fmt.Sprintf("work%d", n), func(b *testing.B) {
			for range b.N {
				Run(2, func(p int) { work(p, n) })
			}
		})
	}
}
