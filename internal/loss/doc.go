// Package loss is the training loss of OmniHSR (docs/CONVENTIONS.md
// section 8) with its gradient, and the validation score: Charbonnier plus
// weighted degradation consistency, spectral angle and spectral curvature
// (Compute, with the paper's weights in Paper), and PSNR and SAM of an
// output clipped to [0, 1] (Score). Training (internal/train) and per-scene
// adaptation (internal/adapt) both use it, so the engine that adaptation
// belongs to needs none of the training code.
package loss
