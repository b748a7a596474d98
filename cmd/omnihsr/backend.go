package main

import (
	"context"
	"os"

	"github.com/omnihsr/omnihsr/internal/capi"
	"github.com/omnihsr/omnihsr/internal/sigctx"
)

// serveBackend runs `omnihsr _backend DIR`, one call of the Python
// package's subprocess backend (capi.Serve), hidden from help: a signal
// cancels the call as the C ABI's cancel flag does.
func serveBackend(args []string) int {
	ctx, stop := sigctx.Notify(context.Background())
	defer stop()
	return capi.Serve(ctx, args, os.Stdout, os.Stderr)
}
