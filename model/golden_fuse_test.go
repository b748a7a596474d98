//go:build !amd64 || amd64.v3

package model

// compilerFuses: this build's compiler turns plain x*y + z into a fused
// multiply-add (every architecture but amd64 below GOAMD64=v3).
const compilerFuses = true
