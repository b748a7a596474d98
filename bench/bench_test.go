package bench

import (
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/model"
)

func TestRunSmall(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	res, err := Run(m, Config{Size: 8, Bands: []int{3, 5}, Factors: []float64{2, 2.5}, Runs: 2, Warmup: -1,
		Progress: func(done, total int) { calls++; _ = total }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || calls != 4 {
		t.Fatalf("%d rows, %d progress calls, want 4 and 4", len(res.Rows), calls)
	}
	r := res.Find(5, 2.5)
	if r == nil || r.OutH != 20 || r.ModelMS <= 0 || r.BicubicMS <= 0 {
		t.Fatalf("row B=5 x2.5 = %+v", r)
	}
	md := res.Markdown()
	if !strings.Contains(md, "| 5 | x2.5 | 20x20 |") || res.Params != m.NumParams() {
		t.Fatalf("markdown:\n%s", md)
	}
}

func TestRunErrors(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Config{{Size: -1}, {Bands: []int{0}}, {Factors: []float64{0}}, {Runs: -2}} {
		if _, err := Run(m, c); err == nil {
			t.Errorf("Run(%+v) gave no error", c)
		}
	}
	if _, err := Run(nil, Config{}); err == nil {
		t.Error("nil model gave no error")
	}
}
