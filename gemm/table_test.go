package gemm

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/gemm/internal/blocked"
)

// TestGFLOPSTable prints, for the benchmark shapes, the best GFLOP/s of
// many runs of each backend, serial and split over Threads() goroutines:
//
//	OMNIHSR_GEMM_TABLE=1 go test -run GFLOPSTable -v ./gemm
//
// On a machine shared with other jobs the best of many short runs is the
// figure least disturbed by them (the benchmarks report means).
func TestGFLOPSTable(t *testing.T) {
	if os.Getenv("OMNIHSR_GEMM_TABLE") == "" {
		t.Skip("set OMNIHSR_GEMM_TABLE=1 to print the table")
	}
	old := active.Load()
	defer active.Store(old)
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range benchShapes {
		a, bb, c, lda, ldb := operands(r, sh.tA, sh.tB, sh.m, sh.n, sh.k)
		line := fmt.Sprintf("%-28s", sh.name)
		for _, cfg := range []struct {
			be     string
			serial bool
			gonum  bool
		}{{"openblas", true, false}, {"openblas", false, false}, {"go", true, false}, {"go", false, false}, {"go", false, true}} {
			if err := Use(cfg.be); err != nil {
				line += "       -"
				continue
			}
			blocked.ForceGonum = cfg.gonum
			f := Sgemm
			if cfg.serial {
				f = SgemmSerial
			}
			best := time.Hour
			deadline := time.Now().Add(1500 * time.Millisecond)
			for rep := 0; rep < 200 && time.Now().Before(deadline); rep++ {
				t0 := time.Now()
				f(sh.tA, sh.tB, sh.m, sh.n, sh.k, 1, a, lda, bb, ldb, 0, c, sh.n)
				best = min(best, time.Since(t0))
			}
			line += fmt.Sprintf(" %7.1f", 2*float64(sh.m*sh.n*sh.k)/best.Seconds()/1e9)
		}
		blocked.ForceGonum = false
		t.Log(line)
	}
	t.Logf("columns: openblas serial, openblas %d threads, pure-go serial, pure-go %d threads, gonum (GFLOP/s, best of many)", Threads(), Threads())
}
