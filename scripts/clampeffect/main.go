// Command clampeffect measures what omnihsr.Options.Clamp does to the
// scores: it runs the seven-dataset protocol (docs/CONVENTIONS.md section
// 6: Wald's protocol on 64 x 64 tiles of remote-sensing scenes and the
// centred crop of close-range ones, each scene normalised to [0, 1],
// antialiased bicubic degradation, outputs clipped to [0, 1] and scored)
// with the model and bicubic as omnihsr.Upscale renders them, unclamped
// and with ClampInput (every band clamped to its range in the low-res
// input). ClampType writes the same float32 values as ClampNone, so it is
// not scored apart. It prints, per factor, the mean PSNR (dB) and SAM
// (degrees) over the images of every scene of the split, and the number of
// images that ClampInput makes better and worse in PSNR.
//
// The default is decided on the training scenes; the evaluation scenes
// are scored once, for the model card:
//
//	go run ./scripts/clampeffect -split train
//	go run ./scripts/clampeffect -split eval
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/eval"
)

func main() {
	split := flag.String("split", "train", "split of scenes.tsv: train (to decide) or eval (for the model card)")
	list := flag.String("scenes", eval.DefaultScenesTSV(), "scene list (../shared/data/hsi/scenes.tsv)")
	factors := flag.String("factors", "2,4,8", "factors")
	flag.Parse()
	if err := run(*list, *split, *factors); err != nil {
		fmt.Fprintln(os.Stderr, "clampeffect:", err)
		os.Exit(1)
	}
}

func upscaler(m omnihsr.Method, c omnihsr.Clamp) eval.MethodFunc {
	label := string(m) + " clamp " + c.String()
	return eval.MethodFunc{Label: label, Fn: func(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
		out, _, err := omnihsr.Upscale(context.Background(), lr, omnihsr.Options{Size: [2]int{h, w}, Method: m, Clamp: c})
		return out, err
	}}
}

func run(list, split, factorList string) error {
	if list == "" {
		return fmt.Errorf("no scene list: give -scenes (../shared/data/hsi/scenes.tsv, the development data)")
	}
	var fs []float64
	for _, f := range strings.Split(factorList, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return fmt.Errorf("-factors: %w", err)
		}
		fs = append(fs, v)
	}
	scenes, err := eval.TSVScenes(list, split)
	if err != nil {
		return err
	}
	methods := []eval.Method{eval.Bicubic{},
		upscaler(omnihsr.MethodBicubic, omnihsr.ClampInput),
		upscaler(omnihsr.MethodOmniHSR, omnihsr.ClampNone),
		upscaler(omnihsr.MethodOmniHSR, omnihsr.ClampInput)}
	var records []eval.Record
	used := 0
	for _, sc := range scenes {
		res, err := eval.Run(context.Background(), []*eval.Scene{sc}, eval.Config{Protocol: eval.ProtocolSeven, Factors: fs, Methods: methods})
		if err != nil && strings.Contains(err.Error(), "holds no") {
			fmt.Fprintf(os.Stderr, "clampeffect: %s left out: %v\n", sc.Name, err)
			continue
		}
		if err != nil {
			return err
		}
		records = append(records, res.Records...)
		used++
	}
	type key struct {
		f float64
		m string
	}
	type acc struct {
		psnr, sam float64
		n         int
	}
	sum := map[key]*acc{}
	type img struct {
		scene string
		image int
		f     float64
	}
	psnr := map[img]map[string]float64{}
	for _, r := range records {
		k := key{r.Factor, r.Method}
		if sum[k] == nil {
			sum[k] = &acc{}
		}
		sum[k].psnr += float64(r.PSNR)
		sum[k].sam += float64(r.SAM)
		sum[k].n++
		i := img{r.Scene, r.Image, r.Factor}
		if psnr[i] == nil {
			psnr[i] = map[string]float64{}
		}
		psnr[i][r.Method] = float64(r.PSNR)
	}
	fmt.Printf("split %s: %d of %d scenes, seven-dataset protocol; mean over images of PSNR (dB) / SAM (degrees)\n\n", split, used, len(scenes))
	fmt.Println("| factor | images | method | none | input | input - none | images better / worse (PSNR) |")
	fmt.Println("|---|---:|---|---:|---:|---:|---:|")
	for _, f := range fs {
		for _, m := range []omnihsr.Method{omnihsr.MethodBicubic, omnihsr.MethodOmniHSR} {
			none := sum[key{f, string(m) + " clamp none"}]
			if m == omnihsr.MethodBicubic {
				none = sum[key{f, eval.BicubicName}]
			}
			in := sum[key{f, string(m) + " clamp input"}]
			if none == nil || in == nil || none.n == 0 {
				continue
			}
			better, worse := 0, 0
			for i, p := range psnr {
				if i.f != f {
					continue
				}
				a, b := p[string(m)+" clamp none"], p[string(m)+" clamp input"]
				if m == omnihsr.MethodBicubic {
					a = p[eval.BicubicName]
				}
				switch {
				case b > a:
					better++
				case b < a:
					worse++
				}
			}
			n := float64(none.n)
			fmt.Printf("| x%g | %d | %s | %.3f / %.3f | %.3f / %.3f | %+.3f / %+.3f | %d / %d |\n", f, none.n, m,
				none.psnr/n, none.sam/n, in.psnr/n, in.sam/n, (in.psnr-none.psnr)/n, (in.sam-none.sam)/n, better, worse)
		}
	}
	return nil
}
