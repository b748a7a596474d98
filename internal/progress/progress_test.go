package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestQuietWhenDisabled(t *testing.T) {
	var buf bytes.Buffer
	b := NewTo(&buf, "work", 10, false)
	for i := 0; i < 10; i++ {
		b.Add(1)
	}
	b.Done()
	if buf.Len() != 0 {
		t.Fatalf("disabled bar wrote %q", buf.String())
	}
	if !strings.Contains(b.Line(), "10/10") {
		t.Fatalf("line %q lacks count", b.Line())
	}
}

func TestTerminalLineHasETA(t *testing.T) {
	var buf bytes.Buffer
	b := NewTo(&buf, "train", 4, true)
	b.start = time.Now().Add(-2 * time.Second)
	b.Set(1)
	out := buf.String()
	if !strings.Contains(out, "1/4") || !strings.Contains(out, "ETA 0:06") {
		t.Fatalf("line %q lacks count or ETA 0:06", out)
	}
}

// TestFraction checks that a fraction bar's line shows the percentage and
// the ETA without the count.
func TestFraction(t *testing.T) {
	var buf bytes.Buffer
	b := NewTo(&buf, "upscale out.tif", 1000, true).Fraction()
	b.start = time.Now().Add(-2 * time.Second)
	b.Set(250)
	if out := buf.String(); !strings.Contains(out, "upscale out.tif 25.0% elapsed") || !strings.Contains(out, "ETA 0:06") || strings.Contains(out, "/1000") {
		t.Fatalf("line %q: want the percentage and ETA 0:06 without the count", out)
	}
}

// TestStop checks that Stop ends a terminal line without claiming the work
// done, and that a machine-readable bar writes no "progress 1.000" for it.
func TestStop(t *testing.T) {
	var term, mach bytes.Buffer
	b := NewTo(&term, "upscale", 10, true)
	b.Set(4)
	b.Stop()
	if out := term.String(); !strings.HasSuffix(out, "\n") || !strings.Contains(out, "4/10") || strings.Contains(out, "10/10") {
		t.Fatalf("terminal line after Stop %q: want it ended at 4/10", out)
	}
	m := NewMachine(&mach, 10)
	m.Set(4)
	m.Stop()
	if out := mach.String(); out != "progress 0.400\n" {
		t.Fatalf("machine lines after Stop %q: want only progress 0.400", out)
	}
}

func TestFormatDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{{0, "0:00"}, {61 * time.Second, "1:01"}, {3723 * time.Second, "1:02:03"}, {-5, "0:00"}} {
		if got := FormatDuration(c.d); got != c.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
