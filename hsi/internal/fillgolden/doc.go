// Package fillgolden loads, for the tests of the HDF5 readers (hdf5,
// formats, matfile), the cubes written in part that
// scripts/miniatures/fill_hdf5.py writes into hsi/products/testdata/fill
// and the values h5py reads from them (fill_golden.json): the elements
// never written read as the dataset's fill value.
package fillgolden
