package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// spinFor is how long a helper goroutine that has finished its part keeps
// looking for the next one before it parks, and how long Run's caller
// looks for its helpers' parts to finish before it blocks. Waking a parked
// goroutine costs tens of microseconds on a virtual machine (a futex wake
// of an idle thread), more than many of the parts an encoder pass on a
// small image splits into; the loops between a model's parallel steps are
// shorter than this, so a helper is still looking when the next step
// starts. The spinning yields (runtime.Gosched) at every turn, so it only
// takes a core that no other goroutine wants.
const spinFor = 200 * time.Microsecond

// maxHelpers bounds the helper goroutines kept between calls; parts
// beyond the idle helpers run on goroutines of their own.
func maxHelpers() int { return 4 * runtime.GOMAXPROCS(0) }

// Helper states. Only a caller of Run moves a helper to busy (by
// compare-and-swap from spinning or parked), and only the helper leaves it.
const (
	parked int32 = iota
	spinning
	busy
)

// group is one Run's parts on helpers: pending counts those that have not
// returned, and each sends on done once it has (done has room for all).
type group struct {
	f       func(int)
	pending atomic.Int32
	done    chan struct{}
}

// finish runs part p of g and reports it.
func (g *group) finish(p int) {
	g.f(p)
	g.pending.Add(-1)
	g.done <- struct{}{}
}

// job is a part handed to a helper.
type job struct {
	g    *group
	part int
}

type helper struct {
	state atomic.Int32
	job   atomic.Pointer[job]
	wake  chan struct{} // a parked helper is woken here after its job is set
}

var pool struct {
	mu      sync.Mutex // serialises adding helpers
	helpers atomic.Pointer[[]*helper]
}

// loop runs the helper's jobs: each one, then spinFor of looking for the
// next, then parking until a caller wakes it.
func (h *helper) loop() {
	for {
		j := h.job.Swap(nil)
		j.g.finish(j.part)
		h.state.Store(spinning)
		start := time.Now()
		for h.job.Load() == nil {
			if time.Since(start) > spinFor && h.state.CompareAndSwap(spinning, parked) {
				<-h.wake
				break
			}
			// Either still spinning, or claimed (busy) with the job about
			// to be stored.
			runtime.Gosched()
		}
		for h.job.Load() == nil { // claimed while parking: the job follows
			runtime.Gosched()
		}
	}
}

// start hands j to an idle helper, or to a new one while there are fewer
// than maxHelpers, or else to a goroutine of its own.
func start(j *job) {
	if hs := pool.helpers.Load(); hs != nil {
		for _, h := range *hs {
			if h.state.CompareAndSwap(spinning, busy) {
				h.job.Store(j)
				return
			}
		}
		for _, h := range *hs {
			if h.state.CompareAndSwap(parked, busy) {
				h.job.Store(j)
				h.wake <- struct{}{}
				return
			}
		}
	}
	pool.mu.Lock()
	var hs []*helper
	if p := pool.helpers.Load(); p != nil {
		hs = *p
	}
	if len(hs) < maxHelpers() {
		h := &helper{wake: make(chan struct{}, 1)}
		h.state.Store(busy)
		h.job.Store(j)
		hs = append(hs[:len(hs):len(hs)], h)
		pool.helpers.Store(&hs)
		pool.mu.Unlock()
		go h.loop()
		return
	}
	pool.mu.Unlock()
	go j.g.finish(j.part)
}

// Run calls f(0), ..., f(parts-1) concurrently and returns when every call
// has returned: f(0) on the calling goroutine, the others on helper
// goroutines that are kept between calls (see spinFor). With one part it
// calls f(0) inline.
func Run(parts int, f func(part int)) {
	if parts <= 1 {
		if parts == 1 {
			f(0)
		}
		return
	}
	g := &group{f: f, done: make(chan struct{}, parts-1)}
	g.pending.Store(int32(parts - 1))
	for p := 1; p < parts; p++ {
		start(&job{g: g, part: p})
	}
	f(0)
	begin := time.Now()
	for g.pending.Load() != 0 {
		if time.Since(begin) > spinFor {
			// Each receive follows one part's return.
			for g.pending.Load() != 0 {
				<-g.done
			}
			return
		}
		runtime.Gosched()
	}
}
