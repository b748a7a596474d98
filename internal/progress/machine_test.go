package progress

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"
)

// machineLines runs sets on a machine bar of total units, then Done, and
// returns the lines written.
func machineLines(total int64, sets []int64) []string {
	var buf bytes.Buffer
	b := NewMachine(&buf, total)
	for _, d := range sets {
		b.Set(d)
	}
	b.Done()
	return strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
}

func TestMachineLines(t *testing.T) {
	every := func(n int64) []int64 {
		s := make([]int64, n)
		for i := range s {
			s[i] = int64(i + 1)
		}
		return s
	}
	for _, c := range []struct {
		name  string
		total int64
		sets  []int64
		want  []string
	}{
		{"quarters", 4, []int64{1, 2, 3, 4}, []string{"progress 0.250", "progress 0.500", "progress 0.750", "progress 1.000"}},
		{"no repeat of 1 at Done", 2, []int64{2}, []string{"progress 1.000"}},
		{"Done alone", 5, nil, []string{"progress 1.000"}},
		{"zero total", 0, []int64{0, 3}, []string{"progress 0.000", "progress 1.000"}},
		{"beyond total clamps", 3, []int64{7}, []string{"progress 1.000"}},
		{"no step back", 10, []int64{5, 3, 5}, []string{"progress 0.500", "progress 1.000"}},
		{"steps under 0.01 skipped", 1000, []int64{1, 5, 9, 10, 11, 20}, []string{"progress 0.001", "progress 0.011", "progress 1.000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := machineLines(c.total, c.sets)
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("lines %q, want %q", got, c.want)
			}
		})
	}
	// A long run writes one line per percent, not one per unit: the first
	// unit, then every 1000 units.
	if got := machineLines(100000, every(100000)); len(got) != 101 || got[0] != "progress 0.000" || got[1] != "progress 0.010" || got[100] != "progress 1.000" {
		t.Errorf("100000 steps: %d lines (%q, %q ... %q), want 101 from progress 0.000, 0.010 to progress 1.000", len(got), got[0], got[1], got[len(got)-1])
	}
}

func TestMachineSlowProgressAfterASecond(t *testing.T) {
	var buf bytes.Buffer
	b := NewMachine(&buf, 1000)
	b.Set(1)
	b.Set(2) // under 0.01 more and under a second: nothing
	b.last = time.Now().Add(-2 * time.Second)
	b.Set(3) // a second on: written although only 0.002 more
	if got, want := buf.String(), "progress 0.001\nprogress 0.003\n"; got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}
