package eval_test

import (
	"slices"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
)

// testModel is a small model with random weights.
func testModel(t *testing.T) *model.Model {
	t.Helper()
	cfg := model.DefaultConfig()
	cfg.Encoder.C, cfg.Encoder.Blocks, cfg.Encoder.FFNRatio, cfg.FiLMHidden = 8, 1, 2, 8
	m, err := model.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Every method of the registry renders the same image through Prepare
// (what upscale streams) as through Of (what eval scores), and names
// itself as the tables do.
func TestPrepareMatchesEval(t *testing.T) {
	m := testModel(t)
	lr, err := hsi.New(9, 7, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range lr.Data {
		lr.Data[i] = float32(i%11) / 11
	}
	labels := map[string]string{"bicubic": eval.BicubicName, "omnihsr": "OmniHSR", "omnihsr-se": "OmniHSR+SE8", "omnihsr-bp": "OmniHSR+BP"}
	for _, mt := range method.All() {
		t.Run(mt.Name, func(t *testing.T) {
			em, err := eval.Of(mt, m)
			if err != nil {
				t.Fatal(err)
			}
			if em.Name() != labels[mt.Name] {
				t.Errorf("label %q, want %q", em.Name(), labels[mt.Name])
			}
			want, err := em.Upscale(lr, 20, 15)
			if err != nil {
				t.Fatal(err)
			}
			r, err := mt.Prepare(m, lr)
			if err != nil {
				t.Fatal(err)
			}
			var sink rows
			if err := r.RenderTo(20, 15, &sink, nil); err != nil {
				t.Fatal(err)
			}
			if len(sink) != len(want.Data) {
				t.Fatalf("rendered %d samples, want %d", len(sink), len(want.Data))
			}
			for i, v := range sink {
				if v != want.Data[i] {
					t.Fatalf("sample %d: rendered %v, evaluated %v", i, v, want.Data[i])
				}
			}
			// The streamed renderers, a band of one row at a time (a small
			// memory limit), each band written slowly while the next is
			// rendered: the same samples. (The self-ensemble and
			// back-projection render in memory.)
			if mt.Name != "bicubic" && mt.Name != "omnihsr" {
				return
			}
			t.Setenv("OMNIHSR_MEM_LIMIT", "2K")
			if rows := model.StripRows(15, 3); rows != 1 {
				t.Fatalf("%d rows per band under a 2K limit, want 1", rows)
			}
			slow := slowRows{delay: time.Millisecond}
			if err := r.RenderTo(20, 15, &slow, nil); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(slow.rows, want.Data) {
				t.Fatalf("rendered a band at a time into a slow sink: %d samples differing from the evaluated %d", len(slow.rows), len(want.Data))
			}
		})
	}
	if _, err := eval.Named("omnihsr", nil); err == nil {
		t.Error("omnihsr without a model: no error")
	}
	if _, err := eval.Named("nosuch", m); err == nil {
		t.Error("unknown method: no error")
	}
}

// rows collects rendered rows (model.RowSink).
type rows []float32

func (r *rows) WriteRows(d []float32) error {
	*r = append(*r, d...)
	return nil
}

// slowRows collects rendered rows, taking delay per call.
type slowRows struct {
	delay time.Duration
	rows  []float32
}

func (r *slowRows) WriteRows(d []float32) error {
	time.Sleep(r.delay)
	r.rows = append(r.rows, d...)
	return nil
}
