package adapt

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/internal/cputime"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/nn"
)

// BenchmarkStep is one fine-tuning step of the default settings on a
// 102-band scene (Pavia's band count): the training pairs' forward and
// backward passes and the Adam update.
func BenchmarkStep(b *testing.B) {
	m := defaultModel(b).Alone()
	sc, _, err := newScene(testScene(96, 96, 102, 7), 4, Default, model.EncodeOptions{})
	if err != nil || sc == nil {
		b.Fatal(err)
	}
	ft, err := m.CopyWeights()
	if err != nil {
		b.Fatal(err)
	}
	tr, err := newTrainer(ft, sc.x, sc, Default, 4, 0, 3)
	if err != nil {
		b.Fatal(err)
	}
	release := nn.FixedParts()
	defer release()
	b.ResetTimer()
	for range b.N {
		if err := tr.step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuto512 is `-adapt auto` on a 512 x 512 x 102 scene at x4 at
// its most expensive: the check and the fine-tune on the input both run
// (Options.Tuned asks for the second even when the check says no), without
// the final rendering that a plain upscale does too. The budget is 60 s on two cores; the
// benchmark fails when the CPU time of one run, divided over the
// GOMAXPROCS cores, is above it, and reports both.
func BenchmarkAuto512(b *testing.B) {
	m := defaultModel(b)
	lr := testScene(512, 512, 102, 8)
	b.ResetTimer()
	for range b.N {
		c0, t0 := cputime.Process(), time.Now()
		tuned := false
		_, rep, err := Run(context.Background(), m, lr, Options{Steps: Auto, Factor: 4, Tuned: func(*model.Model) { tuned = true }})
		if err != nil {
			b.Fatal(err)
		}
		cpu, wall := cputime.Process()-c0, time.Since(t0)
		perCore := cpu / time.Duration(min(2, runtime.GOMAXPROCS(0)))
		b.ReportMetric(cpu.Seconds(), "cpu-s/op")
		b.ReportMetric(wall.Seconds(), "wall-s/op")
		if rep.CheckSteps == 0 || !tuned {
			b.Fatalf("the fine-tunes did not run: %s", rep)
		}
		if perCore > 60*time.Second {
			b.Errorf("-adapt auto on 512 x 512 x 102 at x4: %.1f s CPU (%.1f s on each of two cores), budget 60 s", cpu.Seconds(), perCore.Seconds())
		}
	}
}
