// Package model is CSM, the network half of OmniHSR (paper Section "Method"
// and Appendix A; docs/CONVENTIONS.md sections 2 and 3): the band map C_B onto M reference
// positions and the input scale, the ESSAformer-style encoder, FiLM on
// log2 s, and the head that predicts one primitive (geometry and a 5x5
// operator) per low-resolution pixel, which package cofr renders.
//
// Inference runs on images of any size band by band (infer.go); Encoded
// caches the factor-independent encoding so that several factors cost one
// encoding. Output is the output path of one head evaluation, forward and
// backward; training (package train) and inference share it.
//
// Config.Variant selects an ablation of the output path (variant.go; the
// paper's Table "Ablation"): OmniHSR itself (""), "free-kernel" (operators
// without the zero-sum constraint), "lowres" (operators on the low-res
// grid, then bicubic: without COFR) and "spectral" (M predicted spectral
// values splatted by COFR's weights). Weight files store the variant;
// files without it are OmniHSR.
package model
