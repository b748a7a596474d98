package mdtab

import (
	"math"
	"strings"
	"testing"
)

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Num(1.005, 2), "1.00"}, {Num(math.NaN(), 2), "n/a"}, {Num(math.Inf(1), 1), "inf"}, {Num(math.Inf(-1), 1), "-inf"},
		{Signed(0.004, 2), "+0.00"}, {Signed(-0.004, 2), "+0.00"}, {Signed(-0.006, 2), "-0.01"}, {Signed(1.5, 1), "+1.5"},
		{Signed(math.NaN(), 2), "n/a"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestTable(t *testing.T) {
	var b strings.Builder
	Header(&b, []string{"Scene", "Method", "x2"}, 2)
	Row(&b, "a", "Bicubic", "1.00")
	want := "| Scene | Method | x2 |\n| --- | --- | ---: |\n| a | Bicubic | 1.00 |\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
