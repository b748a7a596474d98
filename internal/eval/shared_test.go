package eval

import (
	"context"
	"math"
	"testing"
)

func sharedEvalScenes(t *testing.T) []*Scene {
	t.Helper()
	list := DefaultScenesTSV()
	if list == "" {
		t.Skip("../shared/data/hsi/scenes.tsv not found; set OMNIHSR_SHARED")
	}
	sc, err := TSVScenes(list, "eval")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestSharedEvalScenes(t *testing.T) {
	sc := sharedEvalScenes(t)
	if len(sc) != 5 {
		t.Fatalf("%d eval scenes, want 5", len(sc))
	}
	want := map[string]string{"abu-urban-4": "AVIRIS", "balloons_ms_256x256x31_STP": "CAVE", "satellite17_IMAGE": "unknown-17band"}
	for _, s := range sc {
		if sensor, ok := want[s.Name]; ok && s.Sensor != sensor {
			t.Errorf("%s: sensor %q, want %q", s.Name, s.Sensor, sensor)
		}
		if s.File != "eval/"+s.Name+".mat" {
			t.Errorf("%s: file %q is not relative to the list", s.Name, s.File)
		}
	}
	if _, err := TSVScenes(DefaultScenesTSV(), "nosuchsplit"); err == nil {
		t.Error("an empty split was accepted")
	}
}

// Bicubic on the real CAVE scene at x4 and the prior test on one AVIRIS
// tile: finite figures in the expected ranges.
func TestSharedBicubicAndPrior(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	var cave, abu *Scene
	for _, s := range sharedEvalScenes(t) {
		switch s.Name {
		case "balloons_ms_256x256x31_STP":
			cave = s
		case "abu-urban-4":
			abu = s
		}
	}
	res, err := Run(context.Background(), []*Scene{cave}, Config{Protocol: ProtocolSeven, Factors: []float64{4}})
	if err != nil {
		t.Fatal(err)
	}
	// Independent check (torch antialiased bicubic + bicubic, numpy metrics):
	// 34.90 dB, SAM 2.27 degrees.
	s := res.Summaries[0]
	if math.Abs(float64(s.PSNR)-34.90) > 0.01 || math.Abs(float64(s.SAM)-2.27) > 0.01 {
		t.Errorf("CAVE x4 bicubic: PSNR %v, SAM %v; want 34.90, 2.27", s.PSNR, s.SAM)
	}
	pr, err := Prior(context.Background(), []*Scene{abu}, PriorConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Rows) != 2 || pr.Rows[0].Windows != 4 || pr.Rows[1].Windows != 1 {
		t.Fatalf("prior rows %+v", pr.Rows)
	}
	for _, r := range pr.Rows {
		for _, v := range []Num{r.PerBand, r.OneBand, r.FourBands, r.FirstHalf} {
			if math.IsNaN(float64(v)) || math.Abs(float64(v)) > 5 {
				t.Errorf("x%g: prior column %v", r.Factor, v)
			}
		}
	}
}
