package main

import (
	"flag"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// checkType refuses a -type that is no sample type ("" and "same" are
// resolved later), before any input is read.
func checkType(typ string) error {
	if _, _, err := hsi.ParseDataType(typ); err != nil {
		return usagef("-type %q: %v", typ, err)
	}
	return nil
}

// outType is the hsi.WriteOptions.DataType of a -type checked by
// checkType: the zero value for "" (float32) and for "same" (resolved by
// sameType once the input is read).
func outType(typ string) sample.Type {
	t, _, _ := hsi.ParseDataType(typ)
	return t
}

// outputFlags are the flags of a command that writes hyperspectral files
// read from an input.
type outputFlags struct {
	overwrite bool
}

func (o *outputFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.overwrite, "overwrite", false, "allow an output that is the input file (or its ENVI partner, or a link to it); the input is read in full first and replaced only when the output is complete")
}

// check refuses outputs that would replace a file of the input
// (formats.CheckOutput) unless -overwrite was given.
func (o *outputFlags) check(in string, outs ...string) error {
	if o.overwrite {
		return nil
	}
	for _, out := range outs {
		if err := formats.CheckOutput(out, in); err != nil {
			return fmt.Errorf("%w; choose another -out, or give -overwrite to replace the input", err)
		}
	}
	return nil
}

// sameType resolves a -type checked by checkType to the sample type
// written: the input's for "same" (convert, degrade).
func sameType(typ string, info hsi.SourceInfo, in string) (sample.Type, error) {
	t, same, _ := hsi.ParseDataType(typ) // checked by checkType
	if !same {
		return t, nil
	}
	t, err := info.SampleType()
	if err != nil {
		return sample.Invalid, fmt.Errorf("%s: -type same: %w", in, err)
	}
	return t, nil
}
