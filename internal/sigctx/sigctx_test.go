//go:build unix

package sigctx

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

// Each stop signal cancels the context with an error matching
// context.Canceled, and Received names it with its exit status.
func TestNotify(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		name string
		code int
	}{{syscall.SIGINT, "SIGINT", 130}, {syscall.SIGTERM, "SIGTERM", 143}, {syscall.SIGHUP, "SIGHUP", 129}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, stop := Notify(context.Background())
			defer stop()
			if s := Received(ctx); s != nil {
				t.Fatalf("Received before any signal: %+v", s)
			}
			if err := syscall.Kill(syscall.Getpid(), tc.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the context was not cancelled")
			}
			if !errors.Is(ctx.Err(), context.Canceled) {
				t.Errorf("Err %v, want context.Canceled", ctx.Err())
			}
			s := Received(ctx)
			if s == nil || s.Name != tc.name || s.Code != tc.code {
				t.Errorf("Received %+v, want %s %d", s, tc.name, tc.code)
			}
		})
	}
}

// A context cancelled otherwise names no signal.
func TestReceivedNone(t *testing.T) {
	ctx, stop := Notify(context.Background())
	stop()
	if s := Received(ctx); s != nil {
		t.Errorf("stop: Received %+v", s)
	}
	c, cancel := context.WithCancel(context.Background())
	cancel()
	if s := Received(c); s != nil {
		t.Errorf("cancel: Received %+v", s)
	}
}
