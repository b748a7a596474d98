// Package ablation scores trained variants of the OmniHSR model (another
// output path, no hyperspectral training data, another number of reference
// positions) next to bicubic on the seven-dataset protocol, and renders the
// result as a Markdown table shaped like the paper's Table "Output path and
// operator constraint", with the paper's own ablation figures (package
// paper) for comparison. Both outputs are deterministic: timings are left
// out. `omnihsr ablation` wires its flags to Load, Score, Markdown and JSON.
package ablation
