package sigctx

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// signals are the stop signals and the names the commands print.
var signals = []struct {
	sig  syscall.Signal
	name string
}{{syscall.SIGINT, "SIGINT"}, {syscall.SIGTERM, "SIGTERM"}, {syscall.SIGHUP, "SIGHUP"}}

// Notify returns a copy of parent that is cancelled by the first SIGINT,
// SIGTERM or SIGHUP (signal.NotifyContext), and the function that stops
// the notification. After the first signal the default action of the
// signals is restored: a second signal ends the process at once.
func Notify(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	sigs := make([]os.Signal, len(signals))
	for i, s := range signals {
		sigs[i] = s.sig
	}
	ctx, stop = signal.NotifyContext(parent, sigs...)
	context.AfterFunc(ctx, func() {
		if Received(ctx) != nil {
			stop() // signal.Reset's effect: the next signal is not caught
		}
	})
	return ctx, stop
}

// Signal is a stop signal that cancelled a context.
type Signal struct {
	// Name is SIGINT, SIGTERM or SIGHUP.
	Name string
	// Code is the exit status a command stopped by it returns: 128 + the
	// signal number.
	Code int
}

// Received returns the signal that cancelled ctx (a context of Notify, or
// one derived from it), or nil when no signal did.
func Received(ctx context.Context) *Signal {
	cause := context.Cause(ctx)
	if cause == nil {
		return nil
	}
	msg := cause.Error()
	for _, s := range signals {
		// signal.NotifyContext's cause is "<signal> signal received".
		if msg == s.sig.String()+" signal received" {
			return &Signal{Name: s.name, Code: 128 + int(s.sig)}
		}
	}
	return nil
}
