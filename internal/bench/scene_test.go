package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/cofr"
	"github.com/omnihsr/omnihsr/internal/cputime"
	"github.com/omnihsr/omnihsr/internal/model"
)

// The stage benchmarks run on synthetic scenes of side x side x 102 bands
// (a Pavia-like band count) at x4, tiered by size. Run one tier with, e.g.,
//
//	go test ./bench -run '^$' -bench 'Scene.*/512$' -benchtime 1x
const (
	stageBands  = 102
	stageFactor = 4
)

var stageSizes = []int{128, 256, 512}

// stageScene writes the scene of one tier into a temporary directory.
func stageScene(b *testing.B, side int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "scene.hdr")
	if err := WriteScene(path, side, side, stageBands, 1); err != nil {
		b.Fatal(err)
	}
	return path
}

// forTiers runs f as one sub-benchmark per size with that tier's scene.
func forTiers(b *testing.B, f func(b *testing.B, in string, side int)) {
	for _, side := range stageSizes {
		b.Run(fmt.Sprint(side), func(b *testing.B) {
			in := stageScene(b, side)
			b.ResetTimer()
			f(b, in, side)
		})
	}
}

func readScene(b *testing.B, in string) *hsi.Cube {
	b.Helper()
	lr, _, err := formats.Read(in, hsi.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return lr
}

func defaultModel(b *testing.B) *model.Model {
	b.Helper()
	m, err := model.Default()
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// reportCPU adds the process's CPU time (user + system, all threads) per
// op since c0 as cpu-s/op: on a machine shared with other jobs it is the
// figure least disturbed by them, where wall time is not.
func reportCPU(b *testing.B, c0 time.Duration) {
	if c := cputime.Process(); c > 0 {
		b.ReportMetric((c-c0).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// BenchmarkSceneRead times reading the float32 ENVI scene.
func BenchmarkSceneRead(b *testing.B) {
	forTiers(b, func(b *testing.B, in string, side int) {
		b.SetBytes(int64(side) * int64(side) * stageBands * 4)
		for i := 0; i < b.N; i++ {
			readScene(b, in)
		}
	})
}

// BenchmarkSceneEncoder times C_B and the encoder (EncodeImage).
func BenchmarkSceneEncoder(b *testing.B) {
	m := defaultModel(b)
	forTiers(b, func(b *testing.B, in string, side int) {
		lr := readScene(b, in)
		b.ResetTimer()
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			if _, err := m.EncodeImage(lr); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, c0)
		b.ReportMetric(EncoderFLOPs(m, side, side)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
}

// BenchmarkSceneHead times FiLM, the head and the primitives (Output).
func BenchmarkSceneHead(b *testing.B) {
	m := defaultModel(b)
	forTiers(b, func(b *testing.B, in string, side int) {
		enc, err := m.EncodeImage(readScene(b, in))
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := enc.Output(side*stageFactor, side*stageFactor); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// renderStrips renders every output row a band of rows at a time, the
// bands cut as the streaming writer cuts them (cut: the renderer's
// RowCut), without writing.
func renderStrips(b *testing.B, oh, ow, nb int, cut func(int) int, render func(u0, u1 int, dst []float32) error) {
	rows := model.StripRows(ow, nb)
	buf := make([]float32, min(2*rows, oh)*ow*nb) // a band holds up to 2*rows rows (model.BandEnd)
	for u0, u1 := 0, 0; u0 < oh; u0 = u1 {
		u1 = model.BandEnd(u0, rows, oh, cut)
		if err := render(u0, u1, buf[:(u1-u0)*ow*nb]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSceneRender times COFR with the model's primitives: the
// operator field plus U_s (BenchmarkSceneUs alone).
func BenchmarkSceneRender(b *testing.B) {
	m := defaultModel(b)
	forTiers(b, func(b *testing.B, in string, side int) {
		lr := readScene(b, in)
		enc, err := m.EncodeImage(lr)
		if err != nil {
			b.Fatal(err)
		}
		oh := side * stageFactor
		o, err := enc.Output(oh, oh)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(oh) * int64(oh) * stageBands * 4)
		b.ResetTimer()
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			renderStrips(b, oh, oh, lr.B, o.RowCut, o.RenderRows)
		}
		reportCPU(b, c0)
	})
}

// BenchmarkSceneUs times U_s alone: COFR with zero operators (bicubic).
func BenchmarkSceneUs(b *testing.B) {
	m := defaultModel(b)
	forTiers(b, func(b *testing.B, in string, side int) {
		lr := readScene(b, in)
		p, err := cofr.NewPrimitives(lr.H, lr.W)
		if err != nil {
			b.Fatal(err)
		}
		oh := side * stageFactor
		r, err := cofr.NewRenderer(lr, p, oh, oh, m.COFROptions())
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(oh) * int64(oh) * stageBands * 4)
		b.ResetTimer()
		c0 := cputime.Process()
		for i := 0; i < b.N; i++ {
			renderStrips(b, oh, oh, lr.B, r.RowCut, r.RenderRows)
		}
		reportCPU(b, c0)
	})
}

// BenchmarkSceneWrite times streaming an x4 output into a float32 ENVI
// file and committing it; sync_s/op is the Commit (fsync, close, rename).
func BenchmarkSceneWrite(b *testing.B) {
	forTiers(b, func(b *testing.B, in string, side int) {
		oh := side * stageFactor
		rows := model.StripRows(oh, stageBands)
		strip := make([]float32, rows*oh*stageBands)
		for i := range strip {
			strip[i] = float32(i%1000) / 1000
		}
		out := filepath.Join(b.TempDir(), "out.hdr")
		b.SetBytes(int64(oh) * int64(oh) * stageBands * 4)
		var sync time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			wr, err := formats.Create(out, oh, oh, stageBands, hsi.Meta{}, hsi.WriteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			for u0 := 0; u0 < oh; u0 += rows {
				u1 := min(oh, u0+rows)
				if err := wr.WriteRows(strip[:(u1-u0)*oh*stageBands]); err != nil {
					b.Fatal(err)
				}
			}
			t0 := time.Now()
			if err := wr.Commit(); err != nil {
				b.Fatal(err)
			}
			sync += time.Since(t0)
			b.StopTimer()
			for _, f := range formats.WriteFiles(out) {
				os.Remove(f)
			}
			b.StartTimer()
		}
		b.ReportMetric(sync.Seconds()/float64(b.N), "sync_s/op")
	})
}
