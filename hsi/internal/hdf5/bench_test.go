package hdf5

import (
	"fmt"
	"os"
	"testing"
)

// BenchmarkReadDecoders reads the dataset OMNIHSR_BENCH_VAR (default
// /reflectance) of the file OMNIHSR_BENCH_HDF5 (none ships with the
// repository; scripts/bench/emit_sized.py writes an EMIT-sized one) with
// one decoder and with the default number, alternating with -count.
func BenchmarkReadDecoders(b *testing.B) {
	path := os.Getenv("OMNIHSR_BENCH_HDF5")
	if path == "" {
		b.Skip("OMNIHSR_BENCH_HDF5 names no file")
	}
	name := os.Getenv("OMNIHSR_BENCH_VAR")
	if name == "" {
		name = "/reflectance"
	}
	f := openFile(b, path)
	o, err := f.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	n, err := o.Numel()
	if err != nil {
		b.Fatal(err)
	}
	dflt := decoders
	defer func() { decoders = dflt }()
	for _, d := range []int{1, dflt()} {
		b.Run(fmt.Sprintf("decoders=%d", d), func(b *testing.B) {
			decoders = func() int { return d }
			b.SetBytes(int64(n) * int64(o.Type.Size))
			for i := 0; i < b.N; i++ {
				var got uint64
				if err := o.Read(func(_ uint64, raw []byte) error { got += uint64(len(raw)); return nil }); err != nil {
					b.Fatal(err)
				}
				if got != n*uint64(o.Type.Size) {
					b.Fatalf("read %d bytes, want %d", got, n*uint64(o.Type.Size))
				}
			}
		})
	}
}
