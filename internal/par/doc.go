// Package par runs independent work on a few goroutines. It is the one
// place OmniHSR starts worker goroutines for a loop:
//
//   - Run calls f(0), ..., f(parts-1) concurrently, f(0) on the caller and
//     the others on helper goroutines kept between calls, which look for
//     the next part for a while before they park (a parked goroutine takes
//     tens of microseconds to wake, longer than many of a small image's
//     parallel steps). Everything below runs on it.
//   - ForEach and ForEachErr hand items to workers from a shared counter (a
//     work queue, so uneven items balance); ForEachErr stops handing out
//     items after an error.
//   - Strided gives worker w the items w, w+workers, ... in order, a fixed
//     assignment for per-worker accumulators that must be reproducible.
//   - Ranges splits [0, n) into a given number of contiguous parts, run
//     concurrently; Parts chooses that number from a minimum part size.
//     The split depends only on n and the number of parts, so Reduce, which
//     adds per-part float64 accumulators in part order, gives the same bits
//     on every run with the same GOMAXPROCS.
package par
