// Package report produces the evaluation report of OmniHSR,
// docs/results.md, from the project's own code: it runs the twelve-factor
// and seven-dataset protocols, the band redefinition, the test-time
// degradations, the band-dependent blur, the latency table and the two
// test-time options (both protocols again with the self-ensemble, method
// "omnihsr-se" of package method, and with back-projection, "omnihsr-bp",
// which also runs under two of the degradations) with one model, draws the
// figures (false-colour zooms with error maps at x4 and x24, edge spectra,
// per-band RMSE curves, the predicted primitives), and writes every table
// next to the paper's corresponding figures (package paper) with a
// sentence on the difference computed from the numbers.
//
// Everything except the latency table is deterministic: the same model and
// scenes on the same machine give a byte-identical results.md and
// identical PNG files (`omnihsr eval -report docs/`).
package report
