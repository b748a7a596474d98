package hdf5

import (
	"errors"
	"runtime"
	"sync"
)

// decoders returns how many goroutines decode the chunks of a filtered
// dataset: one per CPU, at most 4.
var decoders = func() int { return min(runtime.GOMAXPROCS(0), 4) }

// parallelBytes bounds the chunk buffers of a parallel read: each of the
// decoders, and the chunk being delivered, holds up to three chunk-sized
// buffers (stored, inflated, unshuffled).
const parallelBytes = 256 << 20

type chunkJob struct {
	addr, size uint64
	mask       uint32
	org        []uint64
}

type chunkDone struct {
	data []byte
	org  []uint64
	buf  *chunkBuf
	err  error
}

// parallel hands the chunks an index walk finds to the decoders.
type parallel struct {
	jobs chan chunkJob
	quit chan struct{}
}

var errStopped = errors.New("hdf5: read stopped")

func (p *parallel) queue(j chunkJob) error {
	select {
	case p.jobs <- j:
		return nil
	case <-p.quit:
		return errStopped
	}
}

// parallelDecoders returns the number of decoders for a read of cr (below
// 2: read serially).
func (cr *chunkReader) parallelDecoders() int {
	if len(cr.o.filters) == 0 {
		return 1 // reading is copying: nothing to spread
	}
	n := uint64(1)
	for _, g := range cr.grid {
		n *= g
		if n > 1 {
			break
		}
	}
	if n < 2 {
		return 1
	}
	return min(decoders(), int(parallelBytes/(3*cr.nbytes))-1)
}

// readParallel runs walk, an index walk that calls chunkAt, with workers
// goroutines reading and unfiltering the chunks and the calling goroutine
// delivering them to cr.fn one at a time, so that fn needs no locking.
// The first error stops the walk and the decoders.
func (cr *chunkReader) readParallel(workers int, walk func() error) error {
	p := &parallel{jobs: make(chan chunkJob, workers), quit: make(chan struct{})}
	cr.par = p
	defer func() { cr.par = nil }()
	done := make(chan chunkDone)
	pool := sync.Pool{New: func() any { return new(chunkBuf) }}
	var walkErr error
	go func() {
		walkErr = walk()
		close(p.jobs)
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range p.jobs {
				b := pool.Get().(*chunkBuf)
				data, err := cr.load(j.addr, j.size, j.mask, b)
				select {
				case done <- chunkDone{data: data, org: j.org, buf: b, err: err}:
				case <-p.quit:
					pool.Put(b)
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	var err error
	for d := range done {
		if err == nil {
			err = d.err
			if err == nil {
				err = cr.scatter(d.data, d.org)
			}
			if err != nil {
				close(p.quit)
			}
		}
		pool.Put(d.buf)
	}
	if err != nil {
		return err
	}
	return walkErr // after close(done): the walk has returned
}
