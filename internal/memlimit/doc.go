// Package memlimit says how much memory one allocation of OmniHSR may
// take, so that a reader or a model refuses a cube that cannot fit with a
// clear error instead of being killed by the system.
//
// Limit is, in order: OMNIHSR_MEM_LIMIT when set (a byte count with an
// optional K, M, G or T suffix, powers of 1024: "512M", "1.5G"); else the
// machine's physical memory, lowered to the memory limit of the process's
// cgroup (v2 memory.max or v1 memory.limit_in_bytes) when one is set; else,
// where neither is known, 1 TiB. Check compares a size with it and returns
// an error wrapping ErrTooLarge, which is hsi.ErrTooLarge.
package memlimit
