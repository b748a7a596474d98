package par

import (
	"sync/atomic"
	"testing"
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
