// Package noise estimates the noise of a hyperspectral cube from the cube
// alone, and draws the synthetic noise of real sensors (white, signal
// dependent, a per-band SNR profile, pushbroom column striping) for training
// and evaluation.
//
// The estimator works band by band on a high-pass residual that cancels
// both smooth image structure and locally linear spectra, and takes a
// robust scale (the median absolute value) of it, so edges and texture
// affect it little. See Estimate.
//
// Outliers judges the bands whose estimated noise is far above their
// spectral neighbours' unusable (garbage bands nobody flagged: atmospheric
// absorptions, detector edges), so that the model leaves them out of its
// noise level. Sampler does the same for a cube streamed sample by sample,
// without holding it.
package noise
