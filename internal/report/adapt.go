package report

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/omnihsr/omnihsr/internal/adapt"
	"github.com/omnihsr/omnihsr/internal/eval"
	"github.com/omnihsr/omnihsr/internal/mdtab"
	"github.com/omnihsr/omnihsr/internal/stat"
)

// AdaptRuns are the report's protocols run with per-scene adaptation
// (`omnihsr upscale -adapt auto`, method eval.Adapted, labelled
// eval.AdaptName) beside the shipped model, on the same images: the
// seven-dataset and twelve-factor protocols (clean), and the
// twelve-factor protocol at DegradeFactors under every noisy row of the
// degradation tables (AdaptNoiseCases). A part not run is nil (the
// Markdown names it and the command that runs it).
type AdaptRuns struct {
	// Settings are adapt.Default as the pass ran (the step count of auto
	// included).
	Settings *adapt.Settings `json:"settings,omitempty"`
	Seven    *eval.Result    `json:"seven,omitempty"`
	Twelve   *eval.Result    `json:"twelve,omitempty"`
	Noise    []DegradeRun    `json:"noise,omitempty"`
}

// The parts of the adaptation pass, in the order Generate runs them.
const (
	AdaptSeven  = "seven"
	AdaptNoise  = "noise"
	AdaptTwelve = "twelve"
)

// AdaptParts are the parts of the adaptation pass, in order.
var AdaptParts = []string{AdaptSeven, AdaptNoise, AdaptTwelve}

// AdaptNoiseCases are the noisy rows of the degradation tables (section 4):
// white noise at the three levels and the sensor-like noises.
func AdaptNoiseCases() []string {
	var out []string
	for _, c := range adaptNoiseCases() {
		out = append(out, c.Label)
	}
	return out
}

func adaptNoiseCases() []degradeCase {
	var out []degradeCase
	for _, c := range degradeCases {
		if c.Deg.Noise > 0 {
			out = append(out, c)
		}
	}
	return append(out, sensorNoiseCases...)
}

// RunAdapt runs the named parts of the adaptation pass (AdaptParts; nil =
// all) on opt.Scenes with opt.Model, adding them to into (nil = a new
// value) and skipping the runs into already holds (a noise case by its
// label). After each run it calls save, when not nil, with the runs so
// far, so that a stopped pass keeps what it finished.
func RunAdapt(ctx context.Context, opt Options, parts []string, into *AdaptRuns, save func(*AdaptRuns) error) (*AdaptRuns, error) {
	if opt.Model == nil {
		return nil, fmt.Errorf("report: no model")
	}
	if parts == nil {
		parts = AdaptParts
	}
	for _, p := range parts {
		if !slices.Contains(AdaptParts, p) {
			return nil, fmt.Errorf("report: adaptation pass: unknown part %q (want %s)", p, strings.Join(AdaptParts, ", "))
		}
	}
	r := into
	if r == nil {
		r = &AdaptRuns{}
	}
	st := adapt.Default
	if r.Settings != nil && *r.Settings != st {
		return nil, fmt.Errorf("report: adaptation pass: the runs so far were made with other settings (%+v, now %+v)", *r.Settings, st)
	}
	r.Settings = &st
	shipped, err := eval.Named("omnihsr", opt.Model)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	methods := []eval.Method{shipped, eval.Adapted{M: opt.Model, Steps: adapt.Auto}}
	saved := func() error {
		if save == nil {
			return nil
		}
		return save(r)
	}
	run := func(protocol string, factors []float64, label string, deg eval.Degradation) (*eval.Result, error) {
		res, err := eval.Run(ctx, opt.Scenes, eval.Config{Protocol: protocol, Factors: factors,
			Methods: methods, Degradation: deg, Progress: opt.Progress, Command: opt.Command})
		if err != nil {
			return nil, fmt.Errorf("report: adaptation pass, %s protocol, %s: %w", protocol, label, err)
		}
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "report: %s, %s protocol, %s: %d records in %.1f s\n", eval.AdaptName, protocol, label, len(res.Records), float64(res.WallSeconds))
		}
		return res, nil
	}
	for _, p := range AdaptParts {
		if !slices.Contains(parts, p) {
			continue
		}
		switch p {
		case AdaptSeven, AdaptTwelve:
			dst := &r.Seven
			if p == AdaptTwelve {
				dst = &r.Twelve
			}
			if *dst != nil {
				continue
			}
			res, err := run(p, nil, "clean", eval.Degradation{})
			if err != nil {
				return nil, err
			}
			*dst = res
			if err := saved(); err != nil {
				return nil, err
			}
		case AdaptNoise:
			for _, c := range adaptNoiseCases() {
				if slices.ContainsFunc(r.Noise, func(d DegradeRun) bool { return d.Label == c.Label }) {
					continue
				}
				res, err := run(eval.ProtocolTwelve, DegradeFactors, c.Label, c.Deg)
				if err != nil {
					return nil, err
				}
				r.Noise = append(r.Noise, DegradeRun{c.Label, res})
				if err := saved(); err != nil {
					return nil, err
				}
			}
		}
	}
	return r, nil
}

// adaptCell is the comparison of one cell (scene, factor) of a run.
type adaptCell struct {
	scene   string
	factor  float64
	label   string  // the run's label (noise case), "" for the clean protocols
	psnr    float64 // adapted minus shipped, dB
	sam     float64 // shipped minus adapted, degrees (positive = better)
	notes   map[string]int
	images  int
	msShip  float64 // summed over the images
	msAdapt float64
}

// adaptCells compares the methods of an adaptation run, cell by cell, in
// the order of its factors and scenes.
func adaptCells(res *eval.Result, label string) []adaptCell {
	if res == nil {
		return nil
	}
	ix := index(res)
	notes := map[[2]string]map[string]int{}
	ms := map[[3]string]float64{}
	for _, rc := range res.Records {
		k := [2]string{rc.Scene, eval.FormatFactor(rc.Factor)}
		ms[[3]string{k[0], k[1], rc.Method}] += float64(rc.MS)
		if rc.Method != eval.AdaptName {
			continue
		}
		if notes[k] == nil {
			notes[k] = map[string]int{}
		}
		notes[k][rc.Note]++
	}
	var out []adaptCell
	for _, f := range res.Config.Factors {
		for _, sc := range res.Scenes {
			sh, ad := ix.get(sc.Name, f, oursName), ix.get(sc.Name, f, eval.AdaptName)
			if sh == nil || ad == nil {
				continue
			}
			k := [2]string{sc.Name, eval.FormatFactor(f)}
			out = append(out, adaptCell{scene: sc.Name, factor: f, label: label,
				psnr: float64(ad.PSNR - sh.PSNR), sam: float64(sh.SAM - ad.SAM), notes: notes[k], images: ad.Images,
				msShip: ms[[3]string{k[0], k[1], oursName}], msAdapt: ms[[3]string{k[0], k[1], eval.AdaptName}]})
		}
	}
	return out
}

// adaptNoteOrder is the order in which a cell lists its notes.
var adaptNoteOrder = []string{eval.NoteAdapted, eval.NoteRouted, eval.NoteCheckNo, eval.NoteTooSmall, eval.NoteNone}

// what says what adaptation did on the images of a cell: the note of a
// single image, or each note with its count.
func (c adaptCell) what() string {
	if c.images == 1 {
		for n := range c.notes {
			return n
		}
	}
	var parts []string
	for _, n := range adaptNoteOrder {
		if k := c.notes[n]; k > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", n, k))
		}
	}
	return strings.Join(parts, ", ")
}

func (c adaptCell) name() string {
	s := c.scene + " " + eval.FormatFactor(c.factor)
	if c.label != "" {
		s = c.label + ", " + s
	}
	return s
}

// adaptTally sums the cells of a part.
type adaptTally struct {
	cells, images, atOrAbove, samNotWorse, losing int
	notes                                         map[string]int
	psnr, sam                                     float64 // means
	worst                                         adaptCell
	msShip, msAdapt                               float64
}

func tallyCells(cells []adaptCell) adaptTally {
	t := adaptTally{notes: map[string]int{}}
	var gp, gs []float64
	for i, c := range cells {
		t.cells++
		t.images += c.images
		for n, k := range c.notes {
			t.notes[n] += k
		}
		gp, gs = append(gp, c.psnr), append(gs, c.sam)
		if c.psnr >= 0 {
			t.atOrAbove++
		}
		if c.sam >= 0 {
			t.samNotWorse++
		}
		if c.psnr < -0.02 || c.sam < -0.02 {
			t.losing++
		}
		if i == 0 || c.psnr < t.worst.psnr {
			t.worst = c
		}
		t.msShip += c.msShip
		t.msAdapt += c.msAdapt
	}
	t.psnr, t.sam = stat.Mean(gp), stat.Mean(gs)
	return t
}

func (t adaptTally) noteCount(n string) string { return fmt.Sprint(t.notes[n]) }

// adaptTable writes one table of a part: a row per row label (factor, or
// noise case and factor), a column per scene; each cell the gain of
// adaptation over the shipped model (PSNR dB / SAM degrees, positive =
// better), what it did and its time per image.
func adaptTable(b *md, scenes []eval.SceneInfo, rows [][]adaptCell, rowLabel func(adaptCell) []string, head []string) {
	cols := append([]string(nil), head...)
	for _, s := range scenes {
		cols = append(cols, sceneLabel(s))
	}
	mdtab.Header(b, cols, len(head))
	for _, row := range rows {
		if len(row) == 0 {
			continue
		}
		cells := rowLabel(row[0])
		for _, s := range scenes {
			cell := "--"
			for _, c := range row {
				if c.scene == s.Name {
					cell = fmt.Sprintf("%s / %s %s (%s s)", mdtab.Signed(c.psnr, 3), mdtab.Signed(c.sam, 3), c.what(), mdtab.Num(c.msAdapt/1000/float64(max(c.images, 1)), 1))
				}
			}
			cells = append(cells, cell)
		}
		mdtab.Row(b, cells...)
	}
	b.end()
}

// byFactor groups cells by factor, in order.
func byFactor(cells []adaptCell) [][]adaptCell {
	var out [][]adaptCell
	for i, c := range cells {
		if i == 0 || c.factor != cells[i-1].factor || c.label != cells[i-1].label {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], c)
	}
	return out
}

func writeAdapt(b *md, r *Results) {
	a := r.Adapt
	if a == nil {
		return
	}
	b.WriteString("## 11. Per-scene adaptation (`omnihsr upscale -adapt auto`; not in the paper)\n\n")
	intro := "`-adapt auto` fine-tunes a copy of the model on pairs made from the input alone, but only when a check one scale down (the input reduced by the factor, rendered back and scored against the input, Wald's protocol on the input itself) says that this pays; else the shipped model renders, or the other member of the model pair when the check prefers it (model card: `internal/model/weights/README.md`, \"Per-scene adaptation\")."
	if st := a.Settings; st != nil {
		intro += fmt.Sprintf(" Settings, chosen on the training scenes and frozen before this run: %s layers, Adam at %g, %d steps, crops of %d-%d pixels, the centre of at most %d x %d pixels; the check keeps a candidate when it wins by %g dB and is not worse in SAM (margin %g degrees).",
			st.Layers, st.LR, st.AutoSteps, st.PatchMin, st.PatchMax, st.Window, st.Window, st.MarginPSNR, st.MarginSAM)
		gated := st.TuneMinCheck > 0 || st.TuneMinBands > 0
		if gated {
			intro += fmt.Sprintf(" A fine-tune is judged only on a reduced input of at least %d pixels a side with at least %d bands scored (else \"too small\").", st.TuneMinCheck, st.TuneMinBands)
		}
		if st.RoutePlain {
			intro += fmt.Sprintf(" The check routes to the other member of the pair only on a reduced input of at least %d pixels a side, and only when the plain check (the input reduced as it is, scored against the input) agrees with the recorrupted one, by %g dB and %g degrees.", st.RouteMinCheck, st.RouteMarginPSNR, st.RouteMarginSAM)
		}
		switch {
		case st.Recorrupt && st.RoutePlain && gated:
			intro += " This is the evaluation's fourth run of the pass. The first exposed a loss on noisy inputs (23 of 80 noisy cells below the model without adaptation, to -8.28 dB): the check was then made unbiased on noisy inputs (it reduces x + z and scores against x - z, z drawn from the input's estimated noise). The second lost on three clean satellite17 cells by routing (to -0.320 dB): the routing rule above was then added. The third lost no cell, but on training images the fine-tune's own check still let losing fine-tunes through: on greyscale and RGB natural images, where no margin of the check separated the fine-tunes that gain from those that lose, and on 16 x 16 checks (a training scene, abu-beach-1 x4, -0.37 dB). The two gates above were then chosen on the training scenes and natural images only (model card), and the evaluation scored once more with them; they only refuse fine-tunes, so a cell either keeps the third run's result bit for bit or falls back to the shipped pair."
		case st.Recorrupt && st.RoutePlain:
			intro += " This is the evaluation's third run of the pass. The first exposed a loss on noisy inputs (23 of 80 noisy cells below the model without adaptation, to -8.28 dB: its check, scored against the noisy input itself on a reduced input far cleaner than the input, routed every checked noisy input to the clean model); the check was then made unbiased on noisy inputs (it reduces x + z and scores against x - z, z drawn from the input's estimated noise). The second run kept every noisy cell at or above the model but lost on three clean satellite17 cells by routing (seven x2 -0.320 dB, twelve x2 -0.242 dB and x2.5 -0.137 dB). The same loss shows on clean training images (natural images, mostly on 16 x 16 checks) and on a clean synthetic 17-band texture: the noise estimate counts fine texture as noise, so the recorrupted check's reduced input is noisier than the input and favours the noise-aware member, and a 16 x 16 check is too small to route on. The routing rule above was then designed and its settings chosen on the training scenes and natural images only (model card), and the evaluation scored once more with it."
		case st.Recorrupt:
			intro += " This is the evaluation's second run of the pass. The first exposed a loss on noisy inputs: its check, scored against the noisy input itself on a reduced input far cleaner than the input, routed every checked noisy input to the clean model (23 of 80 noisy cells below the model without adaptation, to -8.28 dB). The check was then made unbiased on noisy inputs (it reduces x + z and scores against x - z, z drawn from the input's estimated noise, the reduced input's noise topped up to the input's), the fix designed and its choice measured on the training scenes only (model card), and the evaluation scored once more with it."
		}
	}
	b.p("%s Each cell: the gain of `%s` over `%s` on the same images (PSNR dB / SAM degrees; positive = better), what adaptation did (\"%s\": the fine-tuned copy rendered; \"%s\": the check chose the other member of the pair; \"%s\": the check refused; \"%s\": the input is too small for the check; with a count per image where a cell has several), and the mean time of `%s` per image (*timing*).",
		intro, eval.AdaptName, oursName, eval.NoteAdapted, eval.NoteRouted, eval.NoteCheckNo, eval.NoteTooSmall, eval.AdaptName)
	type part struct {
		title string
		res   *eval.Result
		cells []adaptCell
	}
	var parts []part
	var missing []string
	if a.Seven != nil {
		parts = append(parts, part{"Seven datasets (64x64 tiles, close-range centre crops)", a.Seven, adaptCells(a.Seven, "")})
	} else {
		missing = append(missing, AdaptSeven)
	}
	if a.Twelve != nil {
		parts = append(parts, part{"Twelve factors (largest centred square)", a.Twelve, adaptCells(a.Twelve, "")})
	} else {
		missing = append(missing, AdaptTwelve)
	}
	var noise []adaptCell
	var noiseScenes []eval.SceneInfo
	for _, d := range a.Noise {
		noise = append(noise, adaptCells(d.Result, d.Label)...)
		noiseScenes = d.Result.Scenes
	}
	if len(a.Noise) < len(adaptNoiseCases()) {
		missing = append(missing, AdaptNoise)
	}
	factorRow := func(c adaptCell) []string { return []string{eval.FormatFactor(c.factor)} }
	for _, p := range parts {
		b.p("**%s**:", p.title)
		adaptTable(b, p.res.Scenes, byFactor(p.cells), factorRow, []string{"Factor"})
	}
	if len(noise) > 0 {
		b.p("**Noisy inputs** (the noisy rows of section 4: twelve-factor crops at %s):", factorList(DegradeFactors))
		adaptTable(b, noiseScenes, byFactor(noise), func(c adaptCell) []string { return []string{c.label, eval.FormatFactor(c.factor)} }, []string{"Test input", "Factor"})
	}
	b.p("Totals (cells = scene x factor; images = the tiles or crops scored; time = the sum over images of each method's time, *timing*):")
	mdtab.Header(b, []string{"Part", "Cells", "Images", eval.NoteAdapted, eval.NoteRouted, eval.NoteCheckNo, eval.NoteTooSmall, "Mean gain (dB / deg)", "Cells >= shipped (PSNR / SAM)", "Cells losing > 0.02", "Worst cell (dB)", "Time shipped / adapt (s)"}, 1)
	row := func(label string, t adaptTally) {
		mdtab.Row(b, label, fmt.Sprint(t.cells), fmt.Sprint(t.images), t.noteCount(eval.NoteAdapted), t.noteCount(eval.NoteRouted), t.noteCount(eval.NoteCheckNo), t.noteCount(eval.NoteTooSmall),
			mdtab.Signed(t.psnr, 3)+" / "+mdtab.Signed(t.sam, 3), fmt.Sprintf("%d / %d", t.atOrAbove, t.samNotWorse), fmt.Sprint(t.losing),
			mdtab.Signed(t.worst.psnr, 3)+" ("+t.worst.name()+")", mdtab.Num(t.msShip/1000, 1)+" / "+mdtab.Num(t.msAdapt/1000, 1))
	}
	for _, p := range parts {
		row(p.title, tallyCells(p.cells))
	}
	if len(noise) > 0 {
		row("Noisy inputs", tallyCells(noise))
	}
	b.end()
	if len(noise) > 0 {
		t := tallyCells(noise)
		verdict := "so `-adapt auto` keeps every noisy cell at or above the model without it"
		if t.atOrAbove < t.cells {
			below := map[string]int{}
			for _, c := range noise {
				if c.psnr < 0 {
					below[c.what()]++
				}
			}
			var why []string
			for _, n := range adaptNoteOrder {
				if k := below[n]; k > 0 {
					why = append(why, fmt.Sprintf("%d %s", k, n))
				}
			}
			verdict = fmt.Sprintf("so `-adapt auto` does not keep every noisy cell at or above the model without it: %d are below (%s)", t.cells-t.atOrAbove, strings.Join(why, ", "))
		}
		b.p("Noise: of the %d noisy cells (%d runs, %s, %d scenes), %d are at or above the model without adaptation in PSNR and %d in SAM; the worst is %s dB (%s); %d lose more than 0.02 dB or 0.02 degrees; %s.",
			t.cells, len(a.Noise), factorList(DegradeFactors), len(noiseScenes), t.atOrAbove, t.samNotWorse, mdtab.Signed(t.worst.psnr, 3), t.worst.name(), t.losing, verdict)
	}
	if len(missing) > 0 {
		b.p("Not run yet: %s (`go run ./scripts/adapteval -parts %s` runs them and renders this file again).", strings.Join(missing, ", "), strings.Join(missing, ","))
	}
}

// factorList is "x4 and x8".
func factorList(fs []float64) string {
	var s []string
	for _, f := range fs {
		s = append(s, eval.FormatFactor(f))
	}
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// adaptDuration is ", plus N minutes for the adaptation pass (section 11)"
// from the pass's wall time, "" without it.
func adaptDuration(a *AdaptRuns) string {
	if a == nil {
		return ""
	}
	var sec float64
	for _, r := range []*eval.Result{a.Seven, a.Twelve} {
		if r != nil {
			sec += float64(r.WallSeconds)
		}
	}
	for _, d := range a.Noise {
		sec += float64(d.Result.WallSeconds)
	}
	return fmt.Sprintf(", plus %.0f minutes for the adaptation pass of section 11, *timing*", sec/60)
}
