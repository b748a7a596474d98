//go:build !linux

package main

// freeBytes does not know the free space outside Linux.
func freeBytes(dir string) (uint64, bool) { return 0, false }
