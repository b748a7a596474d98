// Package paper holds the figures of the OmniHSR paper, "Super-Resolving
// Unseen Hyperspectral Sensors at Any Scale via Spatial Operators",
// transcribed from its tables, for the comparison columns of the evaluation report, the
// ablation table and the prior test. The paper trains on ARAD (31 bands)
// for 2,000 GPU epochs and tests on ARAD, CAVE, Harvard, Pavia U, Pavia C,
// Chikusei and Botswana; two of those sensors are among our evaluation
// scenes (CAVE, and Pavia Centre from the ROSIS-03 sensor of Pavia C).
//
// The tables are package-level values for reading; nothing modifies them.
package paper
