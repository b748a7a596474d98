#!/usr/bin/python3
"""Write checksums.tsv: for every scene of ../shared/data/hsi/scenes.tsv, the
shape, a position-weighted sum of its values as read by scipy.io.loadmat
(MAT v5) or h5py (v7.3), in float32 like the Go reader's cube, and the first and last value of the
'wavelengths' variable where the file has one.

    cd internal/scenes/testdata && /usr/bin/python3 gen_checksums.py [SCENES.TSV]

The Go test TestSharedChecksums compares its own loads with these numbers,
so every value of every scene is checked against scipy/h5py without Python.
"""
import csv
import os
import sys

import h5py
import numpy as np
import scipy.io as sio

HERE = os.path.dirname(os.path.abspath(__file__))
tsv = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "..", "shared", "data", "hsi", "scenes.tsv")
root = os.path.dirname(tsv)
rows = list(csv.DictReader(open(tsv), delimiter="\t"))
with open(os.path.join(HERE, "checksums.tsv"), "w") as out:
    out.write("file\theight\twidth\tbands\tweighted_sum\twl_first\twl_last\n")
    for r in rows:
        path = os.path.join(root, r["file"])
        v = r["variable"]
        wl = ("", "")
        try:
            m = sio.loadmat(path)
            a = m[v]
            if "wavelengths" in m:
                x = m["wavelengths"].ravel()
                wl = (repr(float(x[0])), repr(float(x[-1])))
        except NotImplementedError:  # MAT v7.3
            with h5py.File(path, "r") as h:
                a = np.transpose(h[v][()])
        a = a.astype(np.float32).astype(np.float64)
        if r["layout"] == "B_HW_colmajor":
            hh, ww = int(r["height"]), int(r["width"])
            a = np.reshape(a.T, (hh, ww, a.shape[0]), order="F")
        h, w, b = a.shape
        # Weight 1..97 by position in the H x W x B (row-major) order.
        wts = np.arange(a.size, dtype=np.float64).reshape(h, w, b) % 97 + 1
        out.write("%s\t%d\t%d\t%d\t%r\t%s\t%s\n" % (r["file"], h, w, b, float((a * wts).sum()), wl[0], wl[1]))
