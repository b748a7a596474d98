// Package cputime reads the process's CPU time, which benchmarks report
// beside wall time: on a machine shared with other jobs, wall time
// measures the contention as much as the code.
package cputime
