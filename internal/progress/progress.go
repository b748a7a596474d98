// Package progress reports the progress of long work (training, evaluation,
// large scenes) with a rate and an ETA. On a terminal it redraws one line;
// when the output is not a terminal (a log file, CI) it stays quiet, except
// for an optional final summary. For a program that runs a command and
// reads its output through a pipe, NewMachine writes "progress F" lines.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// Bar tracks done units out of a total.
type Bar struct {
	mu      sync.Mutex
	w       io.Writer
	label   string
	total   int64
	done    int64
	start   time.Time
	last    time.Time
	enabled bool
	extra   string
	// machine: "progress F" lines (NewMachine) instead of the terminal
	// line; lastFrac is the fraction last written (-1 before the first).
	machine  bool
	lastFrac float64
	// fraction: the terminal line shows the percentage only (Fraction).
	fraction bool
}

// NewTo returns a bar writing to w when enabled (w may be nil when not).
// The caller decides: commands enable it when their stderr is a terminal.
func NewTo(w io.Writer, label string, total int64, enabled bool) *Bar {
	now := time.Now()
	return &Bar{w: w, label: label, total: total, start: now, enabled: enabled}
}

// Fraction makes b's terminal line show the percentage done without the
// count, for a total that counts no unit a reader knows (a weighted
// fraction of work), and returns b.
func (b *Bar) Fraction() *Bar {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.fraction = true
	return b
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Add records n more units done.
func (b *Bar) Add(n int64) { b.Set(b.doneValue() + n) }

func (b *Bar) doneValue() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

// SetExtra sets a short status string shown after the ETA (e.g. a loss).
func (b *Bar) SetExtra(s string) {
	b.mu.Lock()
	b.extra = s
	b.mu.Unlock()
}

// Set records that done units are finished and redraws at most 5 times a
// second.
func (b *Bar) Set(done int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = done
	if !b.enabled {
		return
	}
	now := time.Now()
	if b.machine {
		b.setMachineLocked(now)
		return
	}
	if now.Sub(b.last) < 200*time.Millisecond && done < b.total {
		return
	}
	b.last = now
	fmt.Fprintf(b.w, "\r\033[K%s", b.lineLocked(now))
}

// Line returns the current status line (label, count, rate, ETA).
func (b *Bar) Line() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lineLocked(time.Now())
}

func (b *Bar) lineLocked(now time.Time) string {
	el := now.Sub(b.start)
	pct := 0.0
	if b.total > 0 {
		pct = 100 * float64(b.done) / float64(b.total)
	}
	eta := "?"
	if b.done > 0 && b.total > 0 {
		rem := time.Duration(float64(el) * float64(b.total-b.done) / float64(b.done))
		eta = FormatDuration(rem)
	}
	s := fmt.Sprintf("%s %d/%d (%.1f%%) elapsed %s ETA %s", b.label, b.done, b.total, pct, FormatDuration(el), eta)
	if b.fraction {
		s = fmt.Sprintf("%s %.1f%% elapsed %s ETA %s", b.label, pct, FormatDuration(el), eta)
	}
	if b.extra != "" {
		s += " " + b.extra
	}
	return s
}

// Done finishes the line on a terminal.
func (b *Bar) Done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.machine {
		b.doneMachineLocked(time.Now())
		return
	}
	if b.enabled {
		fmt.Fprintf(b.w, "\r\033[K%s\n", b.lineLocked(time.Now()))
	}
}

// Stop ends the line on a terminal as it stands, for work that failed or
// was stopped: unlike Done, it does not report the work finished (a
// machine-readable bar writes nothing).
func (b *Bar) Stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.enabled && !b.machine && b.done > 0 {
		fmt.Fprintf(b.w, "\r\033[K%s\n", b.lineLocked(time.Now()))
	}
}

// FormatDuration prints d as h:mm:ss or m:ss.
func FormatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d.Round(time.Second) / time.Second)
	h, m, sec := s/3600, (s/60)%60, s%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}
