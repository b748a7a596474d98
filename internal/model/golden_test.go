package model

import (
	"encoding/binary"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/omnihsr/omnihsr/internal/fma"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/upscale_golden.bin (on linux/amd64 only)")

// TestUpscaleGolden renders a fixed input with the embedded model (noise
// estimate, routing, encoder, COFR, x2.5) and compares the output with the
// one committed in testdata/upscale_golden.bin, made on linux/amd64. On
// amd64, whatever the kernels (AVX-512, AVX + FMA, purego) and the thread
// count, the bits must be the same. arm64 (and amd64 built with
// GOAMD64=v3) compiles plain x*y + z into a fused instruction in places
// where amd64 rounds twice (docs/PERFORMANCE.md, "Same answer on every
// machine"), so there the test allows the measured difference: 1e-4 of the
// output's range.
func TestUpscaleGolden(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	r := testrand.New(2026, 34)
	lr := testrand.Cube(r, 20, 24, 7)
	enc, err := m.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	out, err := enc.Render(50, 60)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "upscale_golden.bin")
	if *updateGolden {
		if runtime.GOARCH != "amd64" {
			t.Fatal("-update-golden: the golden is made on amd64")
		}
		b := make([]byte, 4*len(out.Data))
		for i, v := range out.Data {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 4*len(out.Data) {
		t.Fatalf("%s holds %d values, the output %d", path, len(b)/4, len(out.Data))
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	want := make([]float32, len(out.Data))
	for i := range want {
		want[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		lo, hi = min(lo, float64(want[i])), max(hi, float64(want[i]))
	}
	tol := 0.0
	if fma.Native {
		tol = 1e-4 * (hi - lo)
	}
	differ, worst := 0, 0.0
	for i, v := range out.Data {
		if math.Float32bits(v) != math.Float32bits(want[i]) {
			differ++
			worst = max(worst, math.Abs(float64(v)-float64(want[i])))
		}
	}
	if differ > 0 && (tol == 0 || worst > tol) {
		t.Fatalf("%d of %d samples differ from the amd64 golden, by up to %g (allowed %g on %s)", differ, len(out.Data), worst, tol, runtime.GOARCH)
	}
	if differ > 0 {
		t.Logf("%s: %d of %d samples differ from the amd64 golden, by up to %g (allowed %g)", runtime.GOARCH, differ, len(out.Data), worst, tol)
	}
}
