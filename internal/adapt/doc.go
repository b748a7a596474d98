// Package adapt fine-tunes a copy of the model on the scene it is about to
// super-resolve (per-scene self-supervised adaptation), and only when a
// check on the scene itself says that this pays.
//
// The training pairs come from the input alone: crops of it (flipped and
// rotated) are the high-res targets, the same crops degraded by a factor
// with the antialiased bicubic downsampling (resample.Downsample) the
// low-res inputs. No-data is filled and bad bands are left out of the
// network's input as the model does when it renders; bands whose noise is
// far above their neighbours' (noise.Outliers) are left out of the loss and
// of the scores. The work is on the centre of the input (Settings.Window),
// so that its cost does not grow with the scene.
//
// The check runs the whole procedure one scale down: the input reduced by
// the output's factor (Wald's protocol on the input itself) is rendered back
// to the input's size by the shipped model as it routes the input, by the
// other member of the model pair (the model for clean inputs, or the
// noise-aware companion with its field gain), and by a copy fine-tuned on
// pairs made from the reduced input alone; each is scored against the input
// by PSNR and SAM. A candidate replaces the choice so far only when it wins
// on both scores by a margin. The other member of the pair needs more
// (Settings.RouteMinCheck, RouteMarginPSNR, RouteMarginSAM, RoutePlain): a
// reduced input large enough to tell the members apart, larger margins, and
// the agreement of the plain check (the input reduced as it is, scored
// against the input), which errs the other way from the recorrupted one
// (Settings.Recorrupt). When the fine-tuned copy wins, a copy is
// fine-tuned on the input itself and renders; otherwise the choice so far
// does. The check scores the very step that adaptation relies on (what a
// fine-tune on one scale does one scale up), on every pixel of the input,
// none of which its fine-tune saw. Inputs too small to be reduced for the
// check keep the shipped model. A fine-tune is judged only on a reduced
// input of at least Settings.TuneMinCheck pixels a side with at least
// TuneMinBands bands scored: on smaller checks, and on greyscale and RGB
// images, the check's verdict did not tell the fine-tunes that gain from
// those that lose on the training images, so none is trained there.
//
// Everything is deterministic: the random streams are seeded from a hash of
// the input and the factor, the step count is fixed before training starts
// (no wall-clock budget), and training splits its sums into a fixed number
// of parts (nn.FixedParts, COFR on a fixed worker count), so the weights
// are the same bits on any thread count. Run stops within a step when its
// context is done.
package adapt
