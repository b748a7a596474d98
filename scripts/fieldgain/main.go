// Command fieldgain measures, on the training data only (the scenes of
// ../shared/data/hsi/train, whole, and the first 24 natural images the
// training run holds out, their centre up to 128 pixels; never hsi/eval),
// what a per-scene gain g on the shipped model's operator field could buy:
// the output U + g (SR - U), U the bicubic upsampling and SR the shipped
// model's output, by Wald's protocol at x2 and x4 (each image normalised to
// a maximum of 1, degraded by the antialiased bicubic, scored clipped to
// [0, 1]). Per cell it prints PSNR of bicubic and of the shipped model, the
// oracle g (least squares against the reference, which no user has) and
// its PSNR, and g estimated from the input alone one scale down (the input
// reduced by the factor, "self", or by 2, "self2", rendered back and fitted
// against the input) with its PSNR.
//
//	go run ./scripts/fieldgain > fieldgain.tsv
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/loss"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/internal/scenes"
	"github.com/omnihsr/omnihsr/internal/train"
	"github.com/omnihsr/omnihsr/resample"
)

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// gain is the least-squares g minimising |u + g (f - u) - ref|^2 (1 for a
// zero field).
func gain(f, u, ref *hsi.Cube) float64 {
	var num, den float64
	for i := range f.Data {
		fi := float64(f.Data[i]) - float64(u.Data[i])
		num += fi * (float64(ref.Data[i]) - float64(u.Data[i]))
		den += fi * fi
	}
	if den == 0 {
		return 1
	}
	return num / den
}

// mix is u + g (sr - u), clipped to [0, 1].
func mix(u, sr *hsi.Cube, g float64) *hsi.Cube {
	o := sr.Clone()
	for i := range o.Data {
		v := float64(u.Data[i]) + g*(float64(sr.Data[i])-float64(u.Data[i]))
		o.Data[i] = float32(min(1, max(0, v)))
	}
	return o
}

func psnr(ref, est *hsi.Cube) float64 {
	p, _, _ := loss.Score(ref, est)
	return p
}

func main() {
	m, err := model.Default()
	must(err)
	shared, ok := scenes.SharedDir()
	if !ok {
		must(fmt.Errorf("fieldgain: no ../shared data folder"))
	}
	var imgs []*hsi.Cube
	var names []string
	all, err := scenes.Parse(filepath.Join(shared, "data", "hsi", "scenes.tsv"))
	must(err)
	for _, sc := range scenes.Filter(all, "train") {
		c, err := scenes.Load(sc)
		must(err)
		c.NormalizeMax()
		c.Meta = hsi.Meta{}
		imgs, names = append(imgs, c), append(names, sc.Name())
	}
	do := train.DefaultDataOptions(shared)
	paths, _ := train.NaturalImages(do.RGBDir)
	n := 0
	for i, p := range paths {
		if !do.HeldOut(i) || n >= 24 {
			continue
		}
		n++
		c, _, err := formats.Read(p, hsi.ReadOptions{})
		must(err)
		h, w := min(c.H, 128), min(c.W, 128)
		c, _ = c.Crop((c.H-h)/2, (c.W-w)/2, h, w)
		c.NormalizeMax()
		c.Meta = hsi.Meta{}
		imgs, names = append(imgs, c), append(names, filepath.Base(p))
	}
	fmt.Println("image\tx\tbic\tship\toracle_g\toracle\tself_g\tself\tself2_g\tself2")
	for k, c := range imgs {
		for _, s := range []float64{2, 4} {
			lh, lw := resample.OutSize(c.H, s), resample.OutSize(c.W, s)
			if lh < 8 || lw < 8 {
				continue
			}
			lr, err := resample.Downsample(c, lh, lw)
			must(err)
			u, err := resample.Upsample(lr, c.H, c.W)
			must(err)
			sr, err := m.Upscale(lr, c.H, c.W)
			must(err)
			g := gain(sr, u, c)
			// g fitted on the input itself, reduced by f and rendered back.
			selfg := func(f float64) float64 {
				dh, dw := resample.OutSize(lh, f), resample.OutSize(lw, f)
				if dh < 4 || dw < 4 {
					return 1
				}
				d, err := resample.Downsample(lr, dh, dw)
				must(err)
				ud, err := resample.Upsample(d, lh, lw)
				must(err)
				sd, err := m.Upscale(d, lh, lw)
				must(err)
				return gain(sd, ud, lr)
			}
			g1, g2 := selfg(s), selfg(2)
			clip := func(x *hsi.Cube) *hsi.Cube { return mix(u, x, 1) }
			fmt.Printf("%s\t%g\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\n", names[k], s, psnr(c, clip(u)), psnr(c, clip(sr)),
				g, psnr(c, mix(u, sr, g)), g1, psnr(c, mix(u, sr, g1)), g2, psnr(c, mix(u, sr, g2)))
		}
	}
}
