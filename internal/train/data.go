package train

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/noise"
	"github.com/omnihsr/omnihsr/resample"
)

// Image is one training image, normalised to [0, 1] by its maximum
// (docs/CONVENTIONS.md section 6). Rows [0, TrainRows) are for training; the rest, if any,
// are held out for validation. Read it through Size and Crop: an 8-bit
// image is held as bytes (Cube nil), anything else as the float32 Cube.
type Image struct {
	Name      string
	Cube      *hsi.Cube
	HSI       bool
	TrainRows int
	bytes     *byteCube
}

// Dataset holds the training images and the fixed validation samples.
type Dataset struct {
	Natural []*Image // RGB and grey photographs (3- and 1-band sensors)
	HSI     []*Image // hyperspectral training scenes
	Val     []*Sample
	// NoisyVal are the validation samples again with fixed synthetic noise
	// on their low-res inputs (DataOptions.NoisyVal), nil when not asked for.
	NoisyVal []*Sample
}

// DataOptions selects the training data.
type DataOptions struct {
	// RGBDir is ../shared/data/rgb (every image under it, recursively).
	RGBDir string
	// ScenesTSV is ../shared/data/hsi/scenes.tsv; only split "train" is used.
	ScenesTSV string
	// NaturalOnly skips the hyperspectral scenes (ablation).
	NaturalOnly bool
	// ValEvery holds out every ValEvery-th natural image for validation.
	ValEvery int
	// ValFrac is the fraction of rows at the bottom of every HSI scene that
	// is held out for validation.
	ValFrac float64
	// ValFactors are the factors of the validation samples.
	ValFactors []float64
	// ValPatch is the high-resolution side of a validation sample.
	ValPatch int
	// NoisyVal also makes Dataset.NoisyVal: each validation sample with
	// one of the fixed noise draws of NoisyValSpecs on its input.
	NoisyVal bool
}

// DefaultDataOptions returns the data options used for the shipped model.
func DefaultDataOptions(shared string) DataOptions {
	return DataOptions{
		RGBDir:     filepath.Join(shared, "data", "rgb"),
		ScenesTSV:  filepath.Join(shared, "data", "hsi", "scenes.tsv"),
		ValEvery:   25,
		ValFrac:    0.25,
		ValFactors: []float64{2, 3, 4, 6, 8},
		ValPatch:   96,
	}
}

// NaturalImages lists the natural images under dir (PNG and TIFF, any
// depth), sorted: the order HeldOut numbers them in.
func NaturalImages(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if !d.IsDir() && (ext == ".png" || ext == ".tif" || ext == ".tiff") {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("train: list natural images: %w", err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("train: no natural images under %s", dir)
	}
	sort.Strings(paths)
	return paths, nil
}

// HeldOut reports whether the i-th natural image of NaturalImages is held
// out for validation (every ValEvery-th, from the middle of the first run).
func (o DataOptions) HeldOut(i int) bool { return i%o.ValEvery == o.ValEvery/2 }

// LoadDataset reads the natural images and the training scenes. Scenes of
// split "eval" are never read.
func LoadDataset(opt DataOptions) (*Dataset, error) {
	if opt.ValEvery <= 1 {
		return nil, fmt.Errorf("train: ValEvery must be at least 2, got %d", opt.ValEvery)
	}
	paths, err := NaturalImages(opt.RGBDir)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{}
	var valNat []*Image
	for i, p := range paths {
		c, _, err := formats.Read(p, hsi.ReadOptions{})
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		rel, _ := filepath.Rel(opt.RGBDir, p)
		im := newImage(rel, c, false, c.H)
		if opt.HeldOut(i) {
			valNat = append(valNat, im)
			continue
		}
		ds.Natural = append(ds.Natural, im)
	}
	var valHSI []*Image
	if !opt.NaturalOnly {
		all, err := scenes.Parse(opt.ScenesTSV)
		if err != nil {
			return nil, fmt.Errorf("train: %w", err)
		}
		for _, s := range scenes.Filter(all, "train") {
			c, err := scenes.Load(s)
			if err != nil {
				return nil, fmt.Errorf("train: %w", err)
			}
			tr := int(math.Round(float64(c.H) * (1 - opt.ValFrac)))
			im := newImage(s.Name(), c, true, tr)
			ds.HSI = append(ds.HSI, im)
			valHSI = append(valHSI, im)
		}
	}
	ds.Val, err = validationSamples(valNat, valHSI, opt)
	if err != nil {
		return nil, err
	}
	if opt.NoisyVal {
		if ds.NoisyVal, err = noisySamples(ds.Val); err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// validationSamples cuts one centred patch from every held-out natural
// image and from the held-out bottom rows of every HSI scene, cycling
// through the validation factors. The set is fixed: no randomness.
func validationSamples(nat, hs []*Image, opt DataOptions) ([]*Sample, error) {
	var out []*Sample
	k := 0
	add := func(im *Image, y0, h int) error {
		_, w, _ := im.Size()
		p := min(opt.ValPatch, h, w)
		if p < 16 {
			return nil
		}
		s := opt.ValFactors[k%len(opt.ValFactors)]
		k++
		hr, err := im.Crop(y0+(h-p)/2, (w-p)/2, p, p)
		if err != nil {
			return err
		}
		smp, err := makeSample(hr, s)
		if err != nil {
			return fmt.Errorf("train: validation sample %s: %w", im.Name, err)
		}
		smp.Name = im.Name
		out = append(out, smp)
		return nil
	}
	for _, im := range nat {
		h, _, _ := im.Size()
		if err := add(im, 0, h); err != nil {
			return nil, err
		}
	}
	for _, im := range hs {
		h, _, _ := im.Size()
		if err := add(im, im.TrainRows, h-im.TrainRows); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// NoisyValSpecs are the noise draws of the noisy validation samples, in
// turn: white noise of 0.01, 0.02 and 0.03, signal-dependent noise of 0.02
// at a value of 0.5, a VNIR/SWIR band profile of 0.02 and striping.
func NoisyValSpecs(bands int) []noise.Spec {
	return []noise.Spec{
		{Kind: noise.White, Sigma: 0.01},
		{Kind: noise.White, Sigma: 0.02},
		{Kind: noise.White, Sigma: 0.03},
		{Kind: noise.Signal, Shot: 0.0006, Read: 0.01},
		{Kind: noise.Profile, Sigma: 0.02, Band: noise.SensorProfile(nil, bands)},
		{Kind: noise.Stripes, Sigma: 0.01, Stripe: 0.01},
	}
}

// noisySamples returns the validation samples with fixed noise on their
// inputs (sample i gets spec i mod 6 of NoisyValSpecs, seeded by i).
func noisySamples(val []*Sample) ([]*Sample, error) {
	out := make([]*Sample, len(val))
	for i, s := range val {
		specs := NoisyValSpecs(s.LR.B)
		n, err := s.WithNoise(specs[i%len(specs)], rand.New(rand.NewPCG(uint64(i), 0x5eed)))
		if err != nil {
			return nil, fmt.Errorf("train: noisy validation sample %s: %w", s.Name, err)
		}
		out[i] = n
	}
	return out, nil
}

// WithNoise returns a copy of the clean sample s whose input has noise sp
// drawn with rng added (Clean is s's input, Noise names sp); s is not
// modified.
func (s *Sample) WithNoise(sp noise.Spec, rng *rand.Rand) (*Sample, error) {
	lr := s.LR.Clone()
	if err := sp.Add(lr, rng); err != nil {
		return nil, err
	}
	return &Sample{Name: s.Name, HR: s.HR, LR: lr, Clean: s.LR, Scale: s.Scale, Noise: sp.String()}, nil
}

// Sample is one training or validation pair.
type Sample struct {
	Name  string
	HR    *hsi.Cube
	LR    *hsi.Cube // the network's input (noisy when Noise is set)
	Scale float64   // effective factor: mean of HR/LR sides
	// Clean is the input before the noise was added (nil: LR is clean); the
	// degradation-consistency loss compares with it.
	Clean *hsi.Cube
	Noise string // the noise added to LR, "" for none
}

// CleanLR is the low-res input without the added noise.
func (s *Sample) CleanLR() *hsi.Cube {
	if s.Clean != nil {
		return s.Clean
	}
	return s.LR
}

// makeSample degrades hr by the antialiased bicubic downsampling to
// round(side/s).
func makeSample(hr *hsi.Cube, s float64) (*Sample, error) {
	lh, lw := resample.OutSize(hr.H, s), resample.OutSize(hr.W, s)
	if lh < 1 || lw < 1 {
		return nil, fmt.Errorf("factor %g leaves no pixel of a %dx%d patch", s, hr.H, hr.W)
	}
	lr, err := resample.Downsample(hr, lh, lw)
	if err != nil {
		return nil, err
	}
	eff := (float64(hr.H)/float64(lh) + float64(hr.W)/float64(lw)) / 2
	return &Sample{HR: hr, LR: lr, Scale: eff}, nil
}

// SampleOptions controls random training samples.
type SampleOptions struct {
	Patch int // high-resolution patch side (the largest, with PatchMin)
	// PatchMin, when positive, draws the side of each patch uniformly from
	// [PatchMin, Patch], so that training also sees the small low-res
	// inputs (a few pixels) that large factors on small scenes give. Zero
	// keeps every patch at Patch (and the random stream as it was).
	PatchMin   int
	MinScale   float64 // factors are drawn uniformly from [MinScale, MaxScale]
	MaxScale   float64
	HSIProb    float64 // probability of drawing a hyperspectral scene
	BandSubset float64 // probability of a random band subset for an HSI patch
	// NoiseProb is the probability of adding synthetic sensor noise
	// (noise.Draw, level log-uniform in [NoiseMin, NoiseMax] for data
	// normalised to a maximum of 1) to the low-res input; 0 keeps every
	// input clean (and the random stream as it was).
	NoiseProb          float64
	NoiseMin, NoiseMax float64
}

// Draw returns a random training sample: an image (hyperspectral with
// probability HSIProb), a random patch from its training rows (of side
// Patch, or drawn from [PatchMin, Patch]), a random
// flip/rotation, for HSI scenes sometimes a random band subset (a new
// "sensor"), and a factor drawn uniformly from [MinScale, MaxScale].
func (d *Dataset) Draw(rng *rand.Rand, o SampleOptions) (*Sample, error) {
	var pool []*Image
	if len(d.HSI) > 0 && rng.Float64() < o.HSIProb {
		pool = d.HSI
	} else {
		pool = d.Natural
	}
	if len(pool) == 0 {
		return nil, fmt.Errorf("train: no training images")
	}
	im := pool[rng.IntN(len(pool))]
	_, w, _ := im.Size()
	side := o.Patch
	if o.PatchMin > 0 && o.PatchMin < o.Patch {
		side = o.PatchMin + rng.IntN(o.Patch-o.PatchMin+1)
	}
	p := min(side, im.TrainRows, w)
	y0 := rng.IntN(im.TrainRows - p + 1)
	x0 := rng.IntN(w - p + 1)
	hr, err := im.Crop(y0, x0, p, p)
	if err != nil {
		return nil, err
	}
	if hr, err = model.Dihedral(rng.IntN(8)).Apply(hr); err != nil {
		return nil, err
	}
	if im.HSI && rng.Float64() < o.BandSubset {
		hr, err = randomBands(hr, rng)
		if err != nil {
			return nil, err
		}
	}
	s := o.MinScale + (o.MaxScale-o.MinScale)*rng.Float64()
	smp, err := makeSample(hr, s)
	if err != nil {
		return nil, err
	}
	smp.Name = im.Name
	if o.NoiseProb > 0 && rng.Float64() < o.NoiseProb {
		sp := noise.Draw(rng, smp.LR.B, o.NoiseMin, o.NoiseMax)
		smp.Clean = smp.LR
		smp.LR = smp.LR.Clone()
		if err := sp.Add(smp.LR, rng); err != nil {
			return nil, err
		}
		smp.Noise = sp.String()
	}
	return smp, nil
}

// randomBands keeps a random contiguous range of at least 8 bands, taking
// every k-th band of it (k in 1..3), so that training sees many band counts
// and spectral ranges.
func randomBands(c *hsi.Cube, rng *rand.Rand) (*hsi.Cube, error) {
	if c.B < 16 {
		return c, nil
	}
	n := 8 + rng.IntN(c.B-7)
	start := rng.IntN(c.B - n + 1)
	step := 1 + rng.IntN(3)
	var idx []int
	for b := start; b < start+n; b += step {
		idx = append(idx, b)
	}
	return c.SelectBands(idx)
}
