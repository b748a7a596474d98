// Command torchpack exports the training data exactly as the Go trainer
// (package train) sees it, for internal/train/torch/pack.py, which compresses it into
// the training pack that travels to a GPU machine.
//
// It reads what train.LoadDataset reads, with the same rules: the natural
// images under ../shared/data/rgb (every 25th held out for validation) and
// the scenes of split "train" in ../shared/data/hsi/scenes.tsv (the top 75 %
// of their rows for training). Scenes of split "eval" are never read.
// Every image is written as the codes the Go trainer normalises: uint8 for
// 8-bit images, uint16 for other integer images (negatives clamped to 0),
// each with the factor inv = 1/max, so that float32(code) * inv is the
// trainer's value bit for bit; anything else as the normalised float32
// values. Only the training rows of the scenes are written; the held-out
// rows enter only through the fixed validation samples (train.Dataset.Val
// and NoisyVal: high-res patch, low-res input, noisy low-res input), which
// are written as float32.
//
// Output: DIR/index.json and one raw little-endian file per array.
//
//	go run ./scripts/torchpack -shared ../shared -out /tmp/torchexport
package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/internal/train"
)

// Image is one exported training image.
type Image struct {
	Name      string  `json:"name"`
	HSI       bool    `json:"hsi"`
	H         int     `json:"h"` // rows written: the training rows
	W         int     `json:"w"`
	B         int     `json:"b"`
	FullH     int     `json:"full_h"` // the image's rows, held-out ones included
	DType     string  `json:"dtype"`  // "u1", "u2" (codes; value = float32(code) * inv) or "f4" (values)
	Inv       float32 `json:"inv"`
	File      string  `json:"file"`
	byteCount int
}

// Val is one fixed validation sample.
type Val struct {
	Name    string  `json:"name"`
	Scale   float64 `json:"scale"`
	HR      [3]int  `json:"hr"` // h, w, b
	LR      [3]int  `json:"lr"`
	HRFile  string  `json:"hr_file"`
	LRFile  string  `json:"lr_file"`
	Noisy   string  `json:"noisy_file,omitempty"` // the noisy low-res input (train.Dataset.NoisyVal)
	NoiseID string  `json:"noise,omitempty"`
}

// Index is DIR/index.json.
type Index struct {
	Version int                `json:"version"`
	Options train.DataOptions  `json:"options"`
	Natural []Image            `json:"natural"`
	HSI     []Image            `json:"hsi"`
	Val     []Val              `json:"val"`
	Held    []string           `json:"held_out_natural"` // natural images held out (validation only)
	Sizes   map[string]float64 `json:"mib"`
	Scenes  string             `json:"scenes_tsv"`
	RGBDir  string             `json:"rgb_dir"`
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("torchpack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	shared := fs.String("shared", "../shared", "shared directory (holds data/rgb and data/hsi)")
	out := fs.String("out", "", "output directory (required)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" {
		fmt.Fprintln(stderr, "torchpack: -out is required")
		return 2
	}
	if err := export(*shared, *out, stdout); err != nil {
		fmt.Fprintf(stderr, "torchpack: %v\n", err)
		return 1
	}
	return 0
}

func export(shared, out string, log io.Writer) error {
	opt := train.DefaultDataOptions(shared)
	opt.NoisyVal = true
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	idx := Index{Version: 1, Options: opt, Scenes: opt.ScenesTSV, RGBDir: opt.RGBDir, Sizes: map[string]float64{}}
	// Natural images: the listing and hold-out rule of train.LoadDataset.
	paths, err := train.NaturalImages(opt.RGBDir)
	if err != nil {
		return err
	}
	var natBytes, hsiBytes, valBytes int
	for i, p := range paths {
		rel, _ := filepath.Rel(opt.RGBDir, p)
		if opt.HeldOut(i) {
			idx.Held = append(idx.Held, rel)
			continue
		}
		c, _, err := formats.Read(p, hsi.ReadOptions{})
		if err != nil {
			return err
		}
		im, err := writeImage(out, fmt.Sprintf("nat%04d", len(idx.Natural)), rel, c, false, c.H)
		if err != nil {
			return err
		}
		natBytes += im.byteCount
		idx.Natural = append(idx.Natural, im)
	}
	all, err := scenes.Parse(opt.ScenesTSV)
	if err != nil {
		return err
	}
	for _, s := range scenes.Filter(all, "train") {
		c, err := scenes.Load(s)
		if err != nil {
			return err
		}
		tr := int(math.Round(float64(c.H) * (1 - opt.ValFrac)))
		im, err := writeImage(out, fmt.Sprintf("hsi%02d", len(idx.HSI)), s.Name(), c, true, tr)
		if err != nil {
			return err
		}
		hsiBytes += im.byteCount
		idx.HSI = append(idx.HSI, im)
	}
	ds, err := train.LoadDataset(opt)
	if err != nil {
		return err
	}
	if len(ds.NoisyVal) != len(ds.Val) {
		return fmt.Errorf("%d noisy validation samples for %d clean ones", len(ds.NoisyVal), len(ds.Val))
	}
	for k, s := range ds.Val {
		v := Val{Name: s.Name, Scale: s.Scale, HR: [3]int{s.HR.H, s.HR.W, s.HR.B}, LR: [3]int{s.LR.H, s.LR.W, s.LR.B},
			HRFile: fmt.Sprintf("val%02d.hr.f4", k), LRFile: fmt.Sprintf("val%02d.lr.f4", k),
			Noisy: fmt.Sprintf("val%02d.noisy.f4", k), NoiseID: ds.NoisyVal[k].Noise}
		for _, f := range []struct {
			name string
			data []float32
		}{{v.HRFile, s.HR.Data}, {v.LRFile, s.LR.Data}, {v.Noisy, ds.NoisyVal[k].LR.Data}} {
			if err := writeRaw(filepath.Join(out, f.name), f32bytes(f.data)); err != nil {
				return err
			}
			valBytes += 4 * len(f.data)
		}
		idx.Val = append(idx.Val, v)
	}
	idx.Sizes["natural"] = float64(natBytes) / (1 << 20)
	idx.Sizes["hsi"] = float64(hsiBytes) / (1 << 20)
	idx.Sizes["val"] = float64(valBytes) / (1 << 20)
	b, err := json.MarshalIndent(idx, "", " ")
	if err != nil {
		return err
	}
	if err := writeRaw(filepath.Join(out, "index.json"), append(b, '\n')); err != nil {
		return err
	}
	fmt.Fprintf(log, "torchpack: %d natural images (%.1f MiB), %d scenes (%.1f MiB of training rows), %d validation samples (%.2f MiB) in %s\n",
		len(idx.Natural), idx.Sizes["natural"], len(idx.HSI), idx.Sizes["hsi"], len(idx.Val), idx.Sizes["val"], out)
	return nil
}

// writeImage writes rows [0, rows) of c (not yet normalised) in the form
// the Go trainer normalises (train's byteCube and hsi.Cube.NormalizeMax).
func writeImage(dir, key, name string, c *hsi.Cube, isHSI bool, rows int) (Image, error) {
	if rows < 1 || rows > c.H {
		return Image{}, fmt.Errorf("%s: %d training rows of %d", name, rows, c.H)
	}
	im := Image{Name: name, HSI: isHSI, H: rows, W: c.W, B: c.B, FullH: c.H, Inv: 1}
	n := rows * c.W * c.B
	// Codes: every value an integer (after NormalizeMax's clamp of
	// negatives and NaN to 0, except for 8-bit images, which byteCube
	// keeps only when every value is in [0, 255] before any clamp).
	is8, is16 := true, true
	var mx float32
	for _, v := range c.Data {
		if !(v >= 0 && v <= 255) || v != float32(uint8(v)) {
			is8 = false
		}
		if v < 0 || v != v {
			v = 0
		}
		if v > 65535 || v != float32(uint16(v)) {
			is16 = false
		}
		mx = max(mx, v)
	}
	if mx > 0 {
		im.Inv = 1 / mx
	}
	var raw []byte
	switch {
	case is8:
		im.DType = "u1"
		raw = make([]byte, n)
		for i, v := range c.Data[:n] {
			raw[i] = uint8(v)
		}
	case is16:
		im.DType = "u2"
		raw = make([]byte, 2*n)
		for i, v := range c.Data[:n] {
			if v < 0 || v != v {
				v = 0
			}
			binary.LittleEndian.PutUint16(raw[2*i:], uint16(v))
		}
	default:
		im.DType = "f4"
		c.NormalizeMax()
		raw = f32bytes(c.Data[:n])
	}
	im.File = key + "." + im.DType
	im.byteCount = len(raw)
	return im, writeRaw(filepath.Join(dir, im.File), raw)
}

func f32bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func writeRaw(path string, b []byte) error {
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
