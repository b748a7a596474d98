package model

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestEncodeImageContext checks that the context-aware entry points give
// the same encoding and output as the plain ones, bit for bit, and stop
// with the context's error when it is done.
func TestEncodeImageContext(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	lr := testrand.Cube(testrand.New(31, 7), 12, 10, 6)
	want, err := m.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.EncodeImageContext(context.Background(), lr, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.feat.Data, want.feat.Data) {
		t.Fatal("EncodeImageContext: features differ from EncodeImage's")
	}
	wo, err := want.Output(24, 20)
	if err != nil {
		t.Fatal(err)
	}
	go2, err := got.OutputContext(context.Background(), 24, 20)
	if err != nil {
		t.Fatal(err)
	}
	a, err := wo.Render()
	if err != nil {
		t.Fatal(err)
	}
	b, err := go2.Render()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Data, b.Data) {
		t.Fatal("OutputContext: rendering differs from Output's")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.EncodeImageContext(ctx, lr, EncodeOptions{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("EncodeImageContext with a cancelled context: err %v, want context.Canceled", err)
	}
	if _, err := want.OutputContext(ctx, 24, 20); !errors.Is(err, context.Canceled) {
		t.Fatalf("OutputContext with a cancelled context: err %v, want context.Canceled", err)
	}
}
