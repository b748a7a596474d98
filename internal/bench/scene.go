package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/cofr"
	"github.com/omnihsr/omnihsr/internal/model"
)

// WriteScene writes a synthetic h x w x b float32 ENVI scene to path (a
// .hdr name; the data file is named as formats.WriteFiles says): smooth
// spatial structure with per-band gains and a little noise, values in
// about [0, 1], the same for the same seed.
func WriteScene(path string, h, w, b int, seed uint64) error {
	c, err := hsi.New(h, w, b)
	if err != nil {
		return fmt.Errorf("bench: scene %dx%dx%d: %w", h, w, b, err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	gain := make([]float32, b)
	for k := range gain {
		gain[k] = float32(0.5 + 0.5*r.Float64())
	}
	fy, fx := 2*math.Pi/float64(max(h, 1))*7, 2*math.Pi/float64(max(w, 1))*5
	for i := 0; i < h; i++ {
		for j := 0; j < w; j++ {
			base := float32(0.5 + 0.25*math.Sin(fy*float64(i))*math.Cos(fx*float64(j)))
			px := c.Data[(i*w+j)*b : (i*w+j+1)*b]
			for k := range px {
				px[k] = gain[k]*base + 0.02*r.Float32()
			}
		}
	}
	return formats.Write(path, c, hsi.WriteOptions{})
}

// Stages is the time of each stage of one model upscaling of a scene
// file to a streamed ENVI file, run in this process one stage after the
// other (the command runs the same stages, rendering a band of rows
// while the band before it is written: model.StreamRows).
type Stages struct {
	Read    time.Duration // formats.Read of the input
	Encoder time.Duration // C_B, no-data and noise handling, the encoder
	Head    time.Duration // FiLM, the head and the primitives
	Render  time.Duration // COFR: operator field plus U_s
	Us      time.Duration // U_s alone (COFR with zero operators), a separate pass
	Write   time.Duration // streaming the rendered rows into the temporary file
	Sync    time.Duration // Commit: fsync, close, rename
	// OutBytes is the size of the output's data.
	OutBytes int64
	// EncoderFLOPs is the encoder's arithmetic for the input (EncoderFLOPs).
	EncoderFLOPs float64
}

// Field is the operator field's share of Render: Render minus U_s.
func (s Stages) Field() time.Duration { return max(0, s.Render-s.Us) }

// Total is the end-to-end time of the stages (U_s counted inside Render).
func (s Stages) Total() time.Duration {
	return s.Read + s.Encoder + s.Head + s.Render + s.Write + s.Sync
}

// SceneStages upscales the scene file in by factor with m into out (a
// name whose extension picks the format, written with wo), timing each
// stage (see Stages).
func SceneStages(m *model.Model, in, out string, factor float64, wo hsi.WriteOptions) (Stages, error) {
	var st Stages
	t0 := time.Now()
	lr, _, err := formats.Read(in, hsi.ReadOptions{})
	if err != nil {
		return st, err
	}
	st.Read = time.Since(t0)
	oh, ow := int(math.Round(float64(lr.H)*factor)), int(math.Round(float64(lr.W)*factor))
	st.EncoderFLOPs = EncoderFLOPs(m, lr.H, lr.W)

	t0 = time.Now()
	enc, err := m.EncodeImage(lr)
	if err != nil {
		return st, fmt.Errorf("bench: %s: %w", in, err)
	}
	st.Encoder = time.Since(t0)

	t0 = time.Now()
	o, err := enc.Output(oh, ow)
	if err != nil {
		return st, fmt.Errorf("bench: %s: %w", in, err)
	}
	st.Head = time.Since(t0)

	meta, err := lr.Meta.Resized(lr.H, lr.W, oh, ow)
	if err != nil {
		return st, fmt.Errorf("bench: %s: %w", in, err)
	}
	wr, err := formats.Create(out, oh, ow, lr.B, meta, wo)
	if err != nil {
		return st, err
	}
	defer wr.Abort()
	// Render and write one after the other (model.StreamRows overlaps
	// them), so that each stage's time is its own.
	rows := model.StripRows(ow, lr.B)
	buf := make([]float32, min(2*rows, oh)*ow*lr.B) // a band holds up to 2*rows rows (model.BandEnd)
	var render, write time.Duration
	for u0, u1 := 0, 0; u0 < oh; u0 = u1 {
		u1 = model.BandEnd(u0, rows, oh, o.RowCut)
		d := buf[:(u1-u0)*ow*lr.B]
		t := time.Now()
		if err := o.RenderRows(u0, u1, d); err != nil {
			return st, fmt.Errorf("bench: %s: %w", in, err)
		}
		render += time.Since(t)
		t = time.Now()
		if err := wr.WriteRows(d); err != nil {
			return st, err
		}
		write += time.Since(t)
	}
	st.Render, st.Write = render, write
	t0 = time.Now()
	if err := wr.Commit(); err != nil {
		return st, err
	}
	st.Sync = time.Since(t0)
	st.OutBytes = int64(oh) * int64(ow) * int64(lr.B) * 4

	// U_s alone: COFR with zero operators on the same grid, not written.
	p, err := cofr.NewPrimitives(lr.H, lr.W)
	if err != nil {
		return st, err
	}
	r, err := cofr.NewRenderer(lr, p, oh, ow, m.COFROptions())
	if err != nil {
		return st, fmt.Errorf("bench: %s: %w", in, err)
	}
	t0 = time.Now()
	for u0, u1 := 0, 0; u0 < oh; u0 = u1 {
		u1 = model.BandEnd(u0, rows, oh, r.RowCut)
		if err := r.RenderRows(u0, u1, buf[:(u1-u0)*ow*lr.B]); err != nil {
			return st, fmt.Errorf("bench: %s: %w", in, err)
		}
	}
	st.Us = time.Since(t0)
	return st, nil
}

// EncoderFLOPs is the floating-point operations (two per multiply-add) of
// the encoder's convolutions and linear layers for an h x w input: the
// encoder's parameter count, less biases and norms, times the pixels,
// times two (every weight of a convolution or a per-pixel linear layer is
// used once per output pixel; ESSA's token sums are left out).
func EncoderFLOPs(m *model.Model, h, w int) float64 {
	var n int
	for _, p := range m.Enc.Params() {
		if strings.HasSuffix(p.Name, ".weight") && p.T.N > 1 { // not a norm's scale
			n += len(p.T.Data)
		}
	}
	return 2 * float64(n) * float64(h) * float64(w)
}

// Child is one command run as a child process.
type Child struct {
	Name   string        `json:"name"`
	Wall   time.Duration `json:"wall_ns"`
	MaxRSS int64         `json:"max_rss_bytes"` // 0 where the system does not report it
	// CPU is the child's user plus system time: on a machine shared with
	// other jobs, the figure they disturb least.
	CPU time.Duration `json:"cpu_ns"`
}

// RunChild runs argv as a child process and returns its wall time and
// peak resident memory (the child's rusage). On Linux this process's own
// peak is reset first (resetPeakRSS), so that the child's figure is its
// own and not the larger of its own and this process's peak. The end of
// ctx kills the child.
func RunChild(ctx context.Context, name string, argv ...string) (Child, error) {
	resetPeakRSS()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	c := Child{Name: name, Wall: time.Since(t0)}
	if err != nil {
		if ctx.Err() != nil {
			return c, ctx.Err()
		}
		return c, fmt.Errorf("bench: %s: %w: %s", strings.Join(argv, " "), err, strings.TrimSpace(stderr.String()))
	}
	c.MaxRSS = maxRSS(cmd.ProcessState)
	c.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return c, nil
}

// SyncFiles fsyncs files (a command's outputs already written) and returns
// the time it took.
func SyncFiles(paths ...string) (time.Duration, error) {
	t0 := time.Now()
	for _, p := range paths {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			return 0, fmt.Errorf("bench: sync %s: %w", p, err)
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return 0, fmt.Errorf("bench: sync %s: %w", p, err)
		}
	}
	return time.Since(t0), nil
}

// SceneConfig is one whole-scene comparison.
type SceneConfig struct {
	H, W, B int
	Factors []float64
	Exe     string // the omnihsr binary run as a child
	GDAL    string // gdal_translate, or "" to leave it out
	Dir     string // scratch directory (the scene and the outputs)
	Runs    int    // runs of each command (the median is kept; 0 = 1)
	Seed    uint64
	// Format is the output's GDAL driver, given to gdal_translate -of and,
	// for a TIFF, to omnihsr -of: "ENVI" (or "") or "GTiff" or "COG".
	Format string
	// Creation holds creation options KEY=VALUE given to both
	// gdal_translate and omnihsr as -co (TIFF only).
	Creation []string
}

// OutputFormat is the output driver, "ENVI" when none is set.
func (c SceneConfig) OutputFormat() string {
	if c.Format == "" {
		return "ENVI"
	}
	return c.Format
}

// OutputExt is the extension of the outputs: ".hdr" for ENVI, ".tif".
func (c SceneConfig) OutputExt() string {
	if strings.EqualFold(c.OutputFormat(), "ENVI") {
		return ".hdr"
	}
	return ".tif"
}

// WriteOptions are the write options of the output format, as omnihsr
// takes them from -of and -co.
func (c SceneConfig) WriteOptions() hsi.WriteOptions {
	if c.OutputExt() == ".hdr" {
		return hsi.WriteOptions{}
	}
	return hsi.WriteOptions{Driver: hsi.Driver(c.OutputFormat()), Creation: c.Creation}
}

// The names of a comparison's commands (Child.Name).
const (
	ChildGDAL     = "gdal_translate -r cubic"
	ChildGDALSync = "gdal_translate -r cubic, then fsync"
	ChildBicubic  = "omnihsr upscale -method bicubic"
	ChildModel    = "omnihsr upscale"
)

// sceneJob is one command of a comparison: its argv, its output (the name
// given to the command), and the files to sync and remove after it.
type sceneJob struct {
	name  string
	argv  []string
	files []string // the files the command writes
	sync  bool     // followed by an fsync of its files, timed
}

// jobs returns the commands of one factor (output oh x ow, factor flag
// sc) on the scene in: GDAL alone and followed by an fsync (when GDAL is
// set), bicubic, the model.
func (c SceneConfig) jobs(in, sc string, oh, ow int) []sceneJob {
	var jobs []sceneJob
	var co []string
	for _, o := range c.Creation {
		co = append(co, "-co", o)
	}
	if c.GDAL != "" {
		_, inData := formatsPaths(in)
		var out string
		var files []string
		if c.OutputExt() == ".hdr" {
			out = filepath.Join(c.Dir, "gdal.img")
			files = []string{out, filepath.Join(c.Dir, "gdal.hdr")}
		} else {
			out = filepath.Join(c.Dir, "gdal.tif")
			files = []string{out}
		}
		argv := append([]string{c.GDAL, "-q", "-of", c.OutputFormat()}, co...)
		argv = append(argv, "-r", "cubic", "-outsize", fmt.Sprint(ow), fmt.Sprint(oh), inData, out)
		jobs = append(jobs, sceneJob{ChildGDAL, argv, files, false},
			sceneJob{ChildGDALSync, argv, files, true})
	}
	var of []string
	if c.OutputExt() != ".hdr" {
		of = append([]string{"-of", c.OutputFormat()}, co...)
	}
	outB := filepath.Join(c.Dir, "bicubic"+c.OutputExt())
	outM := filepath.Join(c.Dir, "model"+c.OutputExt())
	jobs = append(jobs,
		sceneJob{ChildBicubic, append([]string{c.Exe, "upscale", "-method", "bicubic", "-scale", sc, "-in", in, "-out", outB}, of...), formats.WriteFiles(outB), false},
		sceneJob{ChildModel, append([]string{c.Exe, "upscale", "-scale", sc, "-in", in, "-out", outM}, of...), formats.WriteFiles(outM), false})
	return jobs
}

// SceneRow is one factor's figures.
type SceneRow struct {
	Factor float64 `json:"factor"`
	OutH   int     `json:"out_h"`
	OutW   int     `json:"out_w"`
	// Children: GDAL (when present), GDAL followed by an fsync of its
	// outputs (its wall time is GDAL's plus the sync), bicubic, the model.
	Children []Child `json:"children"`
}

// Scene writes the synthetic scene to Dir and runs, for every factor, GDAL
// cubic (when GDAL is set), `omnihsr upscale -method bicubic` and
// `omnihsr upscale` as child processes, alternating them, keeping each
// command's median wall time and largest peak RSS over Runs.
func Scene(ctx context.Context, cfg SceneConfig) ([]SceneRow, error) {
	runs := max(1, cfg.Runs)
	in := filepath.Join(cfg.Dir, "scene.hdr")
	if err := WriteScene(in, cfg.H, cfg.W, cfg.B, cfg.Seed); err != nil {
		return nil, err
	}
	var rows []SceneRow
	for _, s := range cfg.Factors {
		oh, ow := int(math.Round(float64(cfg.H)*s)), int(math.Round(float64(cfg.W)*s))
		row := SceneRow{Factor: s, OutH: oh, OutW: ow}
		jobs := cfg.jobs(in, fmt.Sprint(s), oh, ow)
		walls := make([][]time.Duration, len(jobs))
		cpus := make([][]time.Duration, len(jobs))
		rss := make([]int64, len(jobs))
		for r := 0; r < runs; r++ {
			for k, j := range jobs {
				c, err := RunChild(ctx, j.name, j.argv...)
				if err != nil {
					return nil, err
				}
				if j.sync {
					dt, err := SyncFiles(j.files...)
					if err != nil {
						return nil, err
					}
					c.Wall += dt
				}
				walls[k] = append(walls[k], c.Wall)
				cpus[k] = append(cpus[k], c.CPU)
				rss[k] = max(rss[k], c.MaxRSS)
				for _, f := range j.files {
					os.Remove(f)
				}
				for _, f := range j.files {
					os.Remove(f + ".aux.xml") // GDAL's sidecar, where it writes one
				}
			}
		}
		for k, j := range jobs {
			row.Children = append(row.Children, Child{Name: j.name, Wall: medianDur(walls[k]), MaxRSS: rss[k], CPU: medianDur(cpus[k])})
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// formatsPaths returns the header and data file of an ENVI path.
func formatsPaths(path string) (hdr, data string) {
	f := formats.WriteFiles(path)
	return f[0], f[len(f)-1]
}

func medianDur(d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[len(s)/2]
}

// SceneMarkdown formats rows as a Markdown table, ratios to the first
// command (GDAL when present); output describes the output format.
func SceneMarkdown(h, w, b int, output string, rows []SceneRow) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "Scene %d x %d x %d float32 ENVI in, %s out, whole-process wall time and CPU time (user + system; medians) and peak RSS of each command run as a child process (the fsync after GDAL is timed in the parent: in the wall time, not the CPU time):\n\n", h, w, b, output)
	sb.WriteString("| factor | output | command | wall s | ratio | CPU s | peak RSS GiB |\n|---:|---|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		ref := r.Children[0].Wall
		for _, c := range r.Children {
			fmt.Fprintf(&sb, "| x%g | %d x %d | `%s` | %.2f | %.2f | %.2f | %.2f |\n", r.Factor, r.OutH, r.OutW, c.Name,
				c.Wall.Seconds(), c.Wall.Seconds()/ref.Seconds(), c.CPU.Seconds(), float64(c.MaxRSS)/(1<<30))
		}
	}
	return sb.String()
}

// StagesMarkdown formats the stage split with the encoder's FLOP floor
// at gflops (the GEMM's measured peak, GFLOP/s; 0 leaves it out).
func StagesMarkdown(st Stages, gflops float64) string {
	var sb strings.Builder
	sb.WriteString("| stage | s | share |\n|---|---:|---:|\n")
	tot := st.Total().Seconds()
	for _, r := range []struct {
		n string
		d time.Duration
	}{{"read", st.Read}, {"encoder", st.Encoder}, {"head", st.Head}, {"operator field", st.Field()}, {"U_s", st.Us}, {"write", st.Write}, {"sync", st.Sync}} {
		fmt.Fprintf(&sb, "| %s | %.2f | %.0f%% |\n", r.n, r.d.Seconds(), 100*r.d.Seconds()/tot)
	}
	fmt.Fprintf(&sb, "| total | %.2f | |\n", tot)
	if gflops > 0 {
		fmt.Fprintf(&sb, "\nEncoder: %.1f GFLOP, %.2f s at %.0f GFLOP/s.\n", st.EncoderFLOPs/1e9, st.EncoderFLOPs/1e9/gflops, gflops)
	}
	return sb.String()
}
