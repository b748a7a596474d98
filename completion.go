package omnihsr

import (
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
)

// completion turns the work of one call into the fraction that
// Options.Completion receives: the model's encoding first, then each
// output's rows in order, each part weighted by its estimated cost. A nil
// *completion reports nothing.
type completion struct {
	f     func(fraction float64)
	share []float64 // the encoding's share (0 for bicubic), then each output's
	last  float64
}

// newCompletion returns the completion of a call that renders the outputs
// sizes of an H x W x B input with mt, or nil when f is nil.
func newCompletion(f func(float64), mt method.Method, H, W, B int, sizes [][2]int) *completion {
	if f == nil {
		return nil
	}
	views := float64(max(1, mt.Ensemble))
	cost := make([]float64, 1+len(sizes))
	if mt.Model {
		cost[0] = views * float64(H) * float64(W) * encodeNsPerPixel
	}
	sum := cost[0]
	for i, s := range sizes {
		cost[1+i] = views * float64(s[0]) * float64(s[1]) * float64(renderNsPerPixel+B*renderNsPerSample)
		sum += cost[1+i]
	}
	if sum > 0 {
		for i := range cost {
			cost[i] /= sum
		}
	}
	return &completion{f: f, share: cost}
}

// at reports the fraction done when part (0 the encoding, i+1 output i)
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

// encode returns the encoder's progress callback (model.Model.WithProgress),
// or nil.
func (c *completion) encode() func(done, total int) {
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
		c.at(1+i, done, total)
	}
}

// finish reports 1 (a call that succeeded).
func (c *completion) finish() {
	if c != nil && c.last < 1 {
		c.last = 1
		c.f(1)
	}
}
