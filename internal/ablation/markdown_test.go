package ablation

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestCommittedTable renders docs/ablation.md again from docs/ablation.json
// (the runs and every figure of the committed evaluation) and the notes,
// and wants the committed bytes: the table, its marks and counts, and the
// paper's tables come from the code.
func TestCommittedTable(t *testing.T) {
	js, err := os.ReadFile("../../docs/ablation.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	if err := json.Unmarshal(js, &r); err != nil {
		t.Fatal(err)
	}
	notes, err := os.ReadFile("../../docs/ablation_notes.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../docs/ablation.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := Markdown(&r, notes); !bytes.Equal(got, want) {
		t.Errorf("Markdown differs from docs/ablation.md:\n%s", firstDiff(string(got), string(want)))
	}
	// The JSON layout round-trips too.
	back, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, js) {
		t.Errorf("JSON differs from docs/ablation.json:\n%s", firstDiff(string(back), string(js)))
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n got: " + a + "\nwant: " + b
		}
	}
	return ""
}

func TestMarks(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name      string
		v         float64
		ok, worse bool
		top       float64
		want      string
	}{
		{"absent", 1, false, true, 1, "--"},
		{"plain", 30.123, true, false, 31, "30.12"},
		{"best at the precision shown", 30.996, true, false, 31, "**31.00**"},
		{"worse", 29.5, true, true, 31, "_29.50_"},
		{"worse and best", 29.5, true, true, 29.5, "**_29.50_**"},
		{"NaN", nan, true, false, 31, "n/a"},
		{"NaN never best", nan, true, false, nan, "n/a"},
	} {
		if got := mark(tc.v, tc.ok, tc.worse, tc.top); got != tc.want {
			t.Errorf("%s: mark = %q, want %q", tc.name, got, tc.want)
		}
	}
	if b := best([]float64{nan, 2, 3, nan}, true); b != 3 {
		t.Errorf("best high = %v", b)
	}
	if b := best([]float64{nan, 2, 3}, false); b != 2 {
		t.Errorf("best low = %v", b)
	}
	if b := best([]float64{nan}, true); !math.IsNaN(b) {
		t.Errorf("best of NaN = %v", b)
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{"omnihsr": true, "m16": true, "free-kernel": true, "a.b_c+d": true, "": false, "-x": false, "a b": false, "a=b": false} {
		if ValidName(name) != want {
			t.Errorf("ValidName(%q) = %v", name, !want)
		}
	}
}
