package products

import (
	"os"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// BenchmarkReadHDF5 reads the HDF5/NetCDF-4 file named by
// OMNIHSR_BENCH_HDF5 (an EMIT-sized granule is 1242 x 1280 x 285 float32,
// 1.8 GB; none ships with the repository).
func BenchmarkReadHDF5(b *testing.B) {
	path := os.Getenv("OMNIHSR_BENCH_HDF5")
	if path == "" {
		b.Skip("OMNIHSR_BENCH_HDF5 names no file")
	}
	for i := 0; i < b.N; i++ {
		c, _, err := ReadHDF5(path, hsi.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(c.Data)) * 4)
	}
}
