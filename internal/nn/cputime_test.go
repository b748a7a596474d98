package nn

import (
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/internal/cputime"
)

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N)/1e6, "cpu-ms/op")
}
