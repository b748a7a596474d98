// Package memlimit says how much memory one allocation of OmniHSR may
// take, so that a reader or a model refuses a cube that cannot fit with a
// clear error instead of being killed by the system.
//
// Limit is, in order: OMNIHSR_MEM_LIMIT when set (a byte count with an
// optional K, M, G or T suffix, powers of 1024: "512M", "1.5G"); else the
// machine's physical memory, lowered to the memory limit of the process's
// cgroup (v2 memory.max or v1 memory.limit_in_bytes) when one is set; else,
// where neither is known, 1 TiB. Either is lowered, on Linux, to the
// address space the process may still map under its RLIMIT_AS and
// RLIMIT_DATA (ulimit -v, -d) when they are set: a mapping beyond them
// makes Go's allocator abort the process (a host such as Python with it),
// which no override may allow. Check compares a size with it and returns
// an error wrapping ErrTooLarge, which is hsi.ErrTooLarge.
package memlimit
