package paper

import "testing"

// The paper's tables quote the same bicubic baseline in several places; a
// transcription error in one of them shows up as a mismatch here.
func TestTablesAgree(t *testing.T) {
	seven := map[string]SevenRow{}
	for _, r := range Seven {
		seven[r.Dataset] = r
	}
	if len(seven) != 7 {
		t.Fatalf("Seven has %d datasets, want 7", len(seven))
	}
	// ARAD is evaluated whole in both Table "main" and Table "seven
	// datasets" (the remote-sensing datasets are cropped differently), so
	// its bicubic figures at x2, x4, x8 (the first three factors) agree.
	for _, r := range Twelve {
		if r.Dataset != "ARAD (31)" {
			continue
		}
		s := seven[r.Dataset]
		for k := range 3 {
			if r.PSNRBic[k] != s.PSNRBic[k] || r.SAMBic[k] != s.SAMBic[k] {
				t.Errorf("ARAD x%d: bicubic %v / %v in Table main, %v / %v in Table seven", 2<<k, r.PSNRBic[k], r.SAMBic[k], s.PSNRBic[k], s.SAMBic[k])
			}
		}
	}
	// Table tab:ablation_full quotes the bicubic row of Table seven.
	if len(Ablation) != 21 {
		t.Fatalf("Ablation has %d rows, want 21", len(Ablation))
	}
	for _, r := range Ablation {
		s, ok := seven[r.Dataset]
		if !ok {
			t.Errorf("Ablation row %q is not a dataset of Table seven", r.Dataset)
			continue
		}
		k := map[float64]int{2: 0, 4: 1, 8: 2}[r.Factor]
		if r.Bicubic.PSNR != s.PSNRBic[k] || r.Bicubic.SAM != s.SAMBic[k] {
			t.Errorf("x%g %s: bicubic %v in tab:ablation_full, %v / %v in Table seven", r.Factor, r.Dataset, r.Bicubic, s.PSNRBic[k], s.SAMBic[k])
		}
	}
	// Table positions at M = 0 is bicubic: ARAD, Pavia U, Chikusei of Table main.
	main := map[string]TwelveRow{}
	for _, r := range Twelve {
		main[r.Dataset] = r
	}
	for f, k := range map[float64]int{4: 1, 8: 2} {
		for i, d := range []string{"ARAD (31)", "Pavia U (103)", "Chikusei (128)"} {
			if got, want := Positions[f][0][i], main[d].PSNRBic[k]; got != want {
				t.Errorf("positions x%g M=0 %s: %v, Table main bicubic %v", f, d, got, want)
			}
		}
	}
	if len(Prior) != 7 || len(BandDef) != 7 || len(BandBlur) != 7 {
		t.Errorf("Prior, BandDef, BandBlur have %d, %d, %d datasets, want 7 each", len(Prior), len(BandDef), len(BandBlur))
	}
}

func TestCounterpart(t *testing.T) {
	for _, tc := range []struct{ name, sensor, want string }{
		{"balloons_ms", "CAVE", "CAVE (31)"},
		{"dataPavia_PaviaCenter_105x120x102", "ROSIS", "Pavia C (102)"},
		{"PaviaU", "ROSIS", "Pavia U (103)"},
		{"satellite17", "AVIRIS", ""},
	} {
		if got := Counterpart(tc.name, tc.sensor); got != tc.want {
			t.Errorf("Counterpart(%q, %q) = %q, want %q", tc.name, tc.sensor, got, tc.want)
		}
	}
}
