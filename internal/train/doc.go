// Package train trains OmniHSR (docs/CONVENTIONS.md section 8): the data
// (natural images as 1- and 3-band sensors plus the hyperspectral training
// scenes, random patches, factors, flips and band subsets, a fixed
// held-out validation set), the paper's loss (package loss: Charbonnier +
// 0.1 degradation consistency + 0.1 spectral angle + 0.05 spectral
// curvature), Adam with the step schedule, checkpoints that resume
// exactly, validation against bicubic, and the CSV log. The ablation
// variants of package model train with the same loop (Options.Model.Variant).
package train
