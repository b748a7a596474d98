// Package bench measures OmniHSR inference latency and peak memory the way
// the paper's Table "Inference latency" does: a random low-resolution input
// of a fixed size (32 x 32 by default), batch 1, float32, every band count
// and factor of the table, the median of a number of runs after warm-ups,
// with bicubic interpolation alone timed in the same run for comparison.
//
// Peak memory is the largest Go heap in use during one more run after the
// timed ones (sampled every 200 us, which would slow the timed runs), above
// the heap before it: the counterpart of the paper's peak allocated GPU
// memory. `omnihsr bench` and the evaluation report (package report) print
// its table.
package bench
