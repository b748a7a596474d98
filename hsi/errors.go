package hsi

import "errors"

// ErrTooLarge is matched (errors.Is) by the error of every reader, writer
// and method that refuses to allocate more than the memory available: a
// cube or a buffer whose size a file's header declares, an output written
// from memory, a model's working set. The limit is the machine's physical
// memory, lowered to the process's cgroup limit, or the byte count in the
// environment variable OMNIHSR_MEM_LIMIT ("512M", "1.5G"). The check comes
// before the allocation, so a small file declaring a huge cube gets this
// error, naming the file, instead of the process being killed.
var ErrTooLarge = errors.New("does not fit in memory")

// ErrNoSpace is matched by the error of a streamed output (formats.Create)
// or of outputs checked together before anything is read
// (formats.CheckOutputs) that would not fit in the free space of their
// file system, counted at their uncompressed size; and by the error of a
// writer of this module whose write or sync the system refuses for lack
// of space later (another process filled the disk; on Unix a full quota
// too), which also matches the system's error (syscall.ENOSPC).
var ErrNoSpace = errors.New("not enough free disk space")
