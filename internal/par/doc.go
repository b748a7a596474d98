// Package par runs independent work items on a few goroutines.
package par
