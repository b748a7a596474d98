package progress

import (
	"fmt"
	"io"
	"time"
)

// NewMachine returns a bar that writes machine-readable lines to w for a
// program that runs a command through a pipe (the QGIS provider):
//
//	progress 0.420
//
// the fraction done with three decimals, one line per line of text. It
// writes a line when the fraction has grown by 0.01 or more since the last
// one, or by any amount after a second, so at most about 100 lines for a
// run; Done writes "progress 1.000" unless that was the last line.
func NewMachine(w io.Writer, total int64) *Bar {
	now := time.Now()
	return &Bar{w: w, total: total, start: now, enabled: true, machine: true, lastFrac: -1}
}

// setMachineLocked writes the "progress F" line for Set; b.mu is held.
func (b *Bar) setMachineLocked(now time.Time) {
	f := b.fractionLocked()
	if f <= b.lastFrac || (f-b.lastFrac < 0.01-1e-9 && now.Sub(b.last) < time.Second) {
		return
	}
	b.writeFractionLocked(f, now)
}

// doneMachineLocked writes the final "progress 1.000" line; b.mu is held.
func (b *Bar) doneMachineLocked(now time.Time) {
	if b.lastFrac < 1 {
		b.writeFractionLocked(1, now)
	}
}

func (b *Bar) writeFractionLocked(f float64, now time.Time) {
	b.lastFrac, b.last = f, now
	fmt.Fprintf(b.w, "progress %.3f\n", f)
}

// fractionLocked is done/total clamped to [0, 1] (0 for no total).
func (b *Bar) fractionLocked() float64 {
	if b.total <= 0 {
		return 0
	}
	f := float64(b.done) / float64(b.total)
	return min(max(f, 0), 1)
}
