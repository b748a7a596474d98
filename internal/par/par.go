package par

import (
	"runtime"
	"sync/atomic"
)

// ForEach calls f(k) for every k in [0, n) on up to workers goroutines,
// which take the items in order from a shared counter (a work queue, so
// uneven items balance). With one worker or one item it runs inline.
func ForEach(n, workers int, f func(k int)) {
	ForEachErr(n, workers, func(_, k int) error {
		f(k)
		return nil
	})
}

// ForEachErr is ForEach for work that can fail; f is also given the index
// of the worker running it, in [0, workers), so that a caller can keep
// scratch buffers per worker. Once an item has failed no further item is
// started. It returns the error of the lowest-numbered item that failed,
// or nil.
func ForEachErr(n, workers int, f func(worker, k int) error) error {
	workers = min(workers, n)
	if workers <= 1 {
		for k := 0; k < n; k++ {
			if err := f(0, k); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next   atomic.Int64
		failed atomic.Bool
		errs   = make([]error, n)
	)
	Run(workers, func(w int) {
		for !failed.Load() {
			k := int(next.Add(1) - 1)
			if k >= n {
				return
			}
			if err := f(w, k); err != nil {
				errs[k] = err
				failed.Store(true)
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Strided calls f(w, k) for every k in [0, n) on up to workers
// goroutines with a fixed assignment: worker w takes items w, w+workers,
// w+2*workers, ... in order. Sums a worker accumulates over its items are
// then the same on every run. With one worker it runs inline.
func Strided(n, workers int, f func(worker, k int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for k := 0; k < n; k++ {
			f(0, k)
		}
		return
	}
	Run(workers, func(w int) {
		for k := w; k < n; k += workers {
			f(w, k)
		}
	})
}

// Parts returns how many contiguous parts to split n items into so that
// each holds at least minPer items: n/minPer, at most workers
// (GOMAXPROCS when workers <= 0) and at least 1.
func Parts(n, minPer, workers int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(1, min(workers, n/max(minPer, 1)))
}

// Ranges splits [0, n) into parts contiguous ranges, part i being
// [i*n/parts, (i+1)*n/parts), and calls f(i, lo, hi) for each, the parts
// concurrently (Run). With one part (or fewer) it calls f(0, 0, n)
// inline, and not at all when n <= 0.
func Ranges(n, parts int, f func(part, lo, hi int)) {
	if n <= 0 {
		return
	}
	if parts <= 1 {
		f(0, 0, n)
		return
	}
	Run(parts, func(i int) { f(i, i*n/parts, (i+1)*n/parts) })
}

// Reduce is Ranges with an accumulator of width float64 values per part,
// zeroed before f runs; the parts' accumulators are added in part order
// and the sum returned, so the result depends only on n and parts.
func Reduce(n, parts, width int, f func(lo, hi int, acc []float64)) []float64 {
	parts = max(parts, 1)
	accs := make([][]float64, parts)
	for i := range accs {
		accs[i] = make([]float64, width)
	}
	Ranges(n, parts, func(i, lo, hi int) { f(lo, hi, accs[i]) })
	for i := 1; i < parts; i++ {
		for j, v := range accs[i] {
			accs[0][j] += v
		}
	}
	return accs[0]
}
