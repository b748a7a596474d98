//go:build !unix

package main

import "errors"

// mkfifo fails: this system has no named pipes in its file system.
func mkfifo(string) error { return errors.New("no named pipes") }
