package par

import (
	"sync"
	"sync/atomic"
)

// ForEach calls f(k) for every k in [0, n) on up to workers goroutines,
// which take the items in order from a shared counter (a work queue, so
// uneven items balance). With one worker or one item it runs inline.
func ForEach(n, workers int, f func(k int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for k := 0; k < n; k++ {
			f(k)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for t := 0; t < workers; t++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				f(k)
			}
		}()
	}
	wg.Wait()
}
