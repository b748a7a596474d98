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
//
// Whole scenes (Scene, `omnihsr bench -scene`): a synthetic float32 ENVI
// scene upscaled by gdal_translate -r cubic, by `omnihsr upscale -method
// bicubic` and by the model, each a child process so that wall time and
// peak RSS (the child's rusage) compare like for like; SceneStages times
// the model's stages in one process (read, encoder, head, operator field,
// U_s, write, sync), and the Scene* benchmarks time each stage tiered by
// size (docs/PERFORMANCE.md).
package bench
