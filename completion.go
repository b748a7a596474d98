package omnihsr

import (
	"github.com/omnihsr/omnihsr/internal/adapt"
	"github.com/omnihsr/omnihsr/internal/method"
)

// The cost model of Options.Completion, measured on a 2-core AMD EPYC VM
// (docs/PERFORMANCE.md, "The whole scene", and the report's latency
// table): the encoder and the head take about 9 microseconds per input
// pixel whatever the band count; rendering and writing an output about
// 100 nanoseconds per pixel (the operators' weights) and 6 per sample.
const (
	encodeNsPerPixel  = 9000
	renderNsPerPixel  = 100
	renderNsPerSample = 6
	// adaptNsPerStep is a fine-tuning step of per-scene adaptation
	// (Options.Adapt), the guard's renderings counted as steps.
	adaptNsPerStep = 70e6
)

// completion turns the work of one call into the fraction that
// Options.Completion receives: per-scene adaptation (Options.Adapt), the
// model's encoding, then each output's rows in order, each part weighted
// by its estimated cost. A nil *completion reports nothing.
type completion struct {
	f     func(fraction float64)
	share []float64 // adaptation's share, the encoding's (0 for bicubic), then each output's
	last  float64
}

// newCompletion returns the completion of a call that renders the outputs
// sizes of an H x W x B input with mt after adaptSteps of adaptation
// (Options.Adapt), or nil when f is nil.
func newCompletion(f func(float64), mt method.Method, H, W, B int, sizes [][2]int, adaptSteps int) *completion {
	if f == nil {
		return nil
	}
	views := float64(max(1, mt.Ensemble))
	cost := make([]float64, 2+len(sizes))
	if adaptSteps == adapt.Auto {
		adaptSteps = adapt.Default.AutoSteps
	}
	if mt.Model && adaptSteps > 0 {
		cost[0] = float64(2*adaptSteps+3) * adaptNsPerStep
	}
	if mt.Model {
		cost[1] = views * float64(H) * float64(W) * encodeNsPerPixel
	}
	sum := cost[0] + cost[1]
	for i, s := range sizes {
		cost[2+i] = views * float64(s[0]) * float64(s[1]) * float64(renderNsPerPixel+B*renderNsPerSample)
		sum += cost[2+i]
	}
	if sum > 0 {
		for i := range cost {
			cost[i] /= sum
		}
	}
	return &completion{f: f, share: cost}
}

// at reports the fraction done when part (0 adaptation, 1 the encoding,
// i+2 output i)
// is done/total complete; the fraction reported never falls.
func (c *completion) at(part, done, total int) {
	var f float64
	for _, s := range c.share[:part] {
		f += s
	}
	if total > 0 {
		f += c.share[part] * float64(min(done, total)) / float64(total)
	}
	if f = min(f, 1); f > c.last {
		c.last = f
		c.f(f)
	}
}

// encode returns the encoder's progress callback (model.EncodeOptions.Progress),
// or nil.
func (c *completion) encode() func(done, total int) {
	if c == nil {
		return nil
	}
	return func(done, total int) { c.at(1, done, total) }
}

// adapt returns the progress callback of per-scene adaptation, or nil.
func (c *completion) adapt() func(done, total int) {
	if c == nil {
		return nil
	}
	return func(done, total int) { c.at(0, done, total) }
}

// rows returns the progress callback of output i's rows: user's
// (Options.Progress, which may be nil) and c's.
func (c *completion) rows(i int, user func(done, total int)) func(done, total int) {
	if c == nil {
		return user
	}
	return func(done, total int) {
		if user != nil {
			user(done, total)
		}
		c.at(2+i, done, total)
	}
}

// finish reports 1 (a call that succeeded).
func (c *completion) finish() {
	if c != nil && c.last < 1 {
		c.last = 1
		c.f(1)
	}
}
