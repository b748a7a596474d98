#!/usr/bin/python3
"""Generate the MAT-file goldens of package matfile.

Run with Debian's python3 (python3-scipy, python3-h5py, python3-numpy):

    cd hsi/matfile/testdata && /usr/bin/python3 gen_golden.py

It writes small MAT files (named *.mat.golden, so that no .mat file is committed:
real scenes stay in ../shared) with scipy.io.savemat (MAT v5, compressed and
uncompressed, every numeric class, 2-D and 3-D, non-numeric variables),
big-endian copies made by byte-swapping scipy's files (and checked by reading
them back with scipy), and MAT v7.3-like HDF5 files with h5py (512-byte
userblock with MATLAB's header text, MATLAB_class attributes, contiguous,
chunked, chunked+gzip, shuffle, fletcher32, libver earliest and latest,
paged fixed-array chunk indexes). expected.json holds, for every file, each
variable's MATLAB dimensions, class and values in MATLAB column-major order.
The Go tests read that dump; they never run Python.
"""
import json
import os
import struct
import zlib

import h5py
import numpy as np
import scipy.io as sio
import scipy.sparse

HERE = os.path.dirname(os.path.abspath(__file__))

CLASSES = {
    "double": np.float64,
    "single": np.float32,
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
    "logical": np.bool_,
}


def pattern(shape, cls, seed):
    """Deterministic values covering the class's range (extremes included)."""
    n = int(np.prod(shape))
    rng = np.random.default_rng(seed)
    dt = CLASSES[cls]
    if cls == "logical":
        v = rng.integers(0, 2, n).astype(bool)
    elif cls in ("double", "single"):
        v = (rng.standard_normal(n) * 100).astype(dt)
        v[0] = 0.0
        if n > 2:
            v[1] = -1.5
            v[2] = 1e-3
    else:
        info = np.iinfo(dt)
        # Stay within what float64 holds exactly for 64-bit classes.
        lo = max(int(info.min), -(2**52))
        hi = min(int(info.max), 2**52)
        v = rng.integers(lo, hi, n, dtype=np.int64 if lo < 0 else np.uint64, endpoint=True).astype(dt)
        if dt().itemsize < 8:
            v[0] = info.min
            if n > 1:
                v[1] = info.max
    # MATLAB arrays are column-major: fill in Fortran order.
    return np.reshape(v, shape, order="F")


def dump_value(a):
    a = np.asarray(a)
    flat = a.flatten(order="F")
    if a.dtype == np.bool_:
        vals = [int(x) for x in flat]
    elif a.dtype.kind in "iu":
        vals = [int(x) for x in flat]
    else:
        vals = [float(x) for x in flat]
    return vals


EXPECTED = {}


def write_json(name, entries):
    """Record the expected content of NAME.mat (written to expected.json)."""
    EXPECTED[name] = entries


def v5_files():
    # One file per (class, rank, compression): small arrays, a few hundred bytes.
    for cls in CLASSES:
        for shape in [(3, 4), (3, 4, 5)]:
            for comp in (False, True):
                a = pattern(shape, cls, seed=len(cls) * 7 + len(shape))
                name = "v5_%s_%dd_%s" % (cls, len(shape), "z" if comp else "u")
                path = os.path.join(HERE, name + ".mat.golden")
                sio.savemat(path, {"x": a}, do_compression=comp, oned_as="column", appendmat=False)
                back = sio.loadmat(path, appendmat=False)["x"]
                assert back.shape == a.shape and np.array_equal(back, a), name
                write_json(name, {"x": {"dims": list(a.shape), "class": cls, "values": dump_value(a)}})


def v5_multi():
    # Several variables: the largest numeric array is the default; non-numeric
    # ones must be skipped; wavelengths go into the metadata.
    cube = pattern((4, 5, 6), "single", seed=1)
    wl = np.linspace(400.0, 900.0, 6).reshape(6, 1)
    small = pattern((2, 2), "double", seed=2)
    cell = np.empty((1, 2), dtype=object)
    cell[0, 0] = np.arange(3.0)
    cell[0, 1] = "abc"
    st = {"f": np.arange(4.0), "g": "text"}
    sp = scipy.sparse.csc_matrix(np.array([[0, 1.0, 0], [2.0, 0, 0]]))
    cplx = (pattern((3, 3), "double", seed=3) + 1j * pattern((3, 3), "double", seed=4))
    empty = np.zeros((0, 3))
    for comp in (False, True):
        name = "v5_multi_%s" % ("z" if comp else "u")
        path = os.path.join(HERE, name + ".mat.golden")
        sio.savemat(path, {
            "small": small, "cube": cube, "wavelengths": wl, "names": "hello",
            "cellv": cell, "structv": st, "sparsev": sp, "cplx": cplx, "empty": empty,
        }, do_compression=comp, appendmat=False)
        write_json(name, {
            "cube": {"dims": list(cube.shape), "class": "single", "values": dump_value(cube)},
            "small": {"dims": list(small.shape), "class": "double", "values": dump_value(small)},
            "wavelengths": {"dims": list(wl.shape), "class": "double", "values": dump_value(wl)},
        })


def v5_colmajor():
    # Bands x pixels matrices (JasperRidge / Moffett layout): a 3 x 4 image of
    # 5 bands (not square: needs Height/Width) and a 3 x 3 image (square).
    for h, w, b, name in [(3, 4, 5, "v5_bhw_3x4x5"), (3, 3, 4, "v5_bhw_3x3x4")]:
        cube = pattern((h, w, b), "double", seed=h * w + b)
        y = np.reshape(cube, (h * w, b), order="F").T.copy()  # B x N, pixel n = row + col*h
        path = os.path.join(HERE, name + ".mat.golden")
        sio.savemat(path, {"Y": y, "nRow": float(h), "nCol": float(w)}, appendmat=False)
        write_json(name, {
            "Y": {"dims": list(y.shape), "class": "double", "values": dump_value(y)},
            "cube": {"dims": [h, w, b], "class": "double", "values": dump_value(cube)},
        })


# --- big-endian copies -------------------------------------------------------

SIZES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 4, 6: 4, 7: 4, 9: 8, 12: 8, 13: 8, 16: 1, 17: 2, 18: 4}


def swap_elements(buf):
    """Byte-swap a sequence of little-endian MAT v5 data elements."""
    out = bytearray()
    i = 0
    while i < len(buf):
        t, n = struct.unpack_from("<II", buf, i)
        if t >> 16:  # small data element: 2-byte size, 2-byte type, 4 bytes data
            n, t = t >> 16, t & 0xFFFF
            data = buf[i + 4:i + 8]
            out += struct.pack(">HH", n, t)
            out += swap_data(t, data[:n]) + data[n:]
            i += 8
            continue
        data = buf[i + 8:i + 8 + n]
        if t == 14:
            body = swap_matrix(data)
        elif t == 15:
            body = zlib.compress(swap_elements(zlib.decompress(data)))
            n = len(body)
        else:
            body = swap_data(t, data)
        out += struct.pack(">II", t, n if t != 14 else len(body)) + body
        step = 8 + len(data)
        if t != 15:
            pad = (-len(data)) % 8
            out += buf[i + step:i + step + pad]
            step += pad
        i += step
    return bytes(out)


def swap_matrix(data):
    # Sub-elements of a matrix: flags, dims, name, then data or nested matrices.
    return swap_elements(data)


def swap_data(t, data):
    size = SIZES.get(t)
    if size is None or size == 1:
        return bytes(data)
    a = np.frombuffer(bytes(data), dtype="<u%d" % size)
    return a.byteswap().tobytes()


def swap_file(src, dst):
    raw = open(src, "rb").read()
    head = bytearray(raw[:128])
    head[124:126] = struct.pack(">H", 0x0100)
    head[126:128] = b"MI"
    body = swap_elements(raw[128:])
    open(dst, "wb").write(bytes(head) + body)


def v5_bigendian():
    for base in ["v5_double_3d_u", "v5_int16_3d_z", "v5_uint16_2d_u", "v5_single_3d_z", "v5_multi_u"]:
        src = os.path.join(HERE, base + ".mat.golden")
        name = base.replace("v5_", "v5be_", 1)
        dst = os.path.join(HERE, name + ".mat.golden")
        swap_file(src, dst)
        a = sio.loadmat(src, appendmat=False)
        b = sio.loadmat(dst, appendmat=False)
        for k in a:
            if k.startswith("__"):
                continue
            if isinstance(a[k], np.ndarray) and a[k].dtype.kind in "biuf":
                assert np.array_equal(a[k], b[k]), (name, k)
        write_json(name, EXPECTED[base])


# --- HDF5 (MAT v7.3-like) ----------------------------------------------------

MATLAB_HEADER = ("MATLAB 7.3 MAT-file, Platform: GLNXA64, Created on: Mon Jan  1 00:00:00 2024 "
                 "HDF5 schema 1.00 .").ljust(116).encode()


def add_userblock_header(path):
    with open(path, "r+b") as f:
        head = bytearray(512)
        head[:116] = MATLAB_HEADER
        head[116:124] = b"\x00" * 8
        head[124:126] = struct.pack("<H", 0x0200)
        head[126:128] = b"IM"
        f.write(bytes(head))


def h5_cube(f, name, cube, matlab_class, **kw):
    # MATLAB stores an H x W x B array as an HDF5 dataset of shape (B, W, H):
    # the C-order dataset holds the column-major MATLAB array.
    arr = np.ascontiguousarray(np.transpose(cube))
    d = f.create_dataset(name, data=arr, **kw)
    d.attrs.create("MATLAB_class", np.bytes_(matlab_class))
    return d


def v73_files():
    specs = [
        ("contig_f64", "double", (5, 6, 4), np.float64, {}),
        ("chunk_f32", "single", (5, 6, 4), np.float32, {"chunks": (2, 3, 2)}),
        ("gzip_f32", "single", (7, 6, 4), np.float32, {"chunks": (3, 4, 5), "compression": "gzip", "compression_opts": 4}),
        ("shuf_u16", "uint16", (5, 6, 3), np.uint16, {"chunks": (2, 6, 5), "compression": "gzip", "shuffle": True}),
        ("fl32_i16", "int16", (4, 4, 3), np.int16, {"chunks": (2, 2, 2), "fletcher32": True}),
        ("mask", "logical", (5, 6), np.uint8, {}),
        ("plane_f64", "double", (3, 5), np.float64, {"chunks": (5, 2), "compression": "gzip"}),
    ]
    for libver, fname in [("earliest", "v73_earliest"), ("latest", "v73_latest")]:
        path = os.path.join(HERE, fname + ".mat.golden")
        entries = {}
        with h5py.File(path, "w", userblock_size=512, libver=libver) as f:
            for name, cls, shape, dt, kw in specs:
                src_cls = "logical" if cls == "logical" else cls
                a = pattern(shape, src_cls, seed=len(name) + len(shape)).astype(dt)
                h5_cube(f, name, a, cls, **kw)
                entries[name] = {"dims": list(shape), "class": cls, "values": dump_value(a)}
            wl = np.linspace(450.0, 700.0, 4)
            w = f.create_dataset("wavelength", data=wl.reshape(1, 4))
            w.attrs.create("MATLAB_class", np.bytes_("double"))
            entries["wavelength"] = {"dims": [4, 1], "class": "double", "values": [float(x) for x in wl]}
            if libver != "latest":
                # (More than 8 links would switch a libver="latest" group to dense
                # storage, a fractal heap, which the Go reader does not support.)
                # Non-numeric MATLAB variables: char (uint16 + class char), a struct (group).
                c = f.create_dataset("txt", data=np.array([[ord(ch)] for ch in "hello"], dtype=np.uint16))
                c.attrs.create("MATLAB_class", np.bytes_("char"))
                g = f.create_group("st")
                g.attrs.create("MATLAB_class", np.bytes_("struct"))
                gf = g.create_dataset("field", data=np.arange(3.0))
                gf.attrs.create("MATLAB_class", np.bytes_("double"))
                e = f.create_dataset("emptyv", data=np.array([0, 3], dtype=np.uint64))
                e.attrs.create("MATLAB_class", np.bytes_("double"))
                e.attrs.create("MATLAB_empty", np.uint8(1))
        add_userblock_header(path)
        with h5py.File(path, "r") as f:
            assert f.userblock_size == 512
            for name, cls, shape, dt, kw in specs:
                assert f[name].shape == tuple(reversed(shape))
        write_json(fname, entries)
    # A plain h5py file without a userblock (HDF5 signature at offset 0) and a
    # big-endian float dataset; it is not a MAT file but the HDF5 reader reads it.
    path = os.path.join(HERE, "plain.h5")
    with h5py.File(path, "w") as f:
        a = pattern((3, 4, 2), "double", seed=9)
        f.create_dataset("be", data=np.transpose(a).astype(">f8"))
        b = pattern((3, 4, 2), "int32", seed=10)
        f.create_dataset("i32be", data=np.transpose(b).astype(">i4"), chunks=(1, 2, 3), compression="gzip")
        c = pattern((2, 3), "int16", seed=11)
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_layout(h5py.h5d.COMPACT)
        arr = np.ascontiguousarray(np.transpose(c))
        dsid = h5py.h5d.create(f.id, b"compact16", h5py.h5t.STD_I16LE, h5py.h5s.create_simple(arr.shape), dcpl=dcpl)
        dsid.write(h5py.h5s.ALL, h5py.h5s.ALL, arr)
    write_json("plain", {
        "be": {"dims": [3, 4, 2], "class": "double", "values": dump_value(a)},
        "i32be": {"dims": [3, 4, 2], "class": "int32", "values": dump_value(b)},
        "compact16": {"dims": [2, 3], "class": "int16", "values": dump_value(c)},
    })
    # libver="latest" chunk indexes: a single chunk (plain and filtered) and
    # fixed arrays of more than 1024 entries (paged), plain and filtered.
    path = os.path.join(HERE, "latest_index.h5")
    ent = {}
    with h5py.File(path, "w", libver="latest") as f:
        for name, shape, kw in [
            ("single", (4, 5, 3), {"chunks": (3, 5, 4)}),
            ("single_z", (4, 5, 3), {"chunks": (3, 5, 4), "compression": "gzip"}),
            ("paged", (1, 1100), {"chunks": (1, 1)}),
            ("paged_z", (1, 1100), {"chunks": (1, 1), "compression": "gzip"}),
        ]:
            a = pattern(shape, "single", seed=len(name))
            h5_cube(f, name, a, "single", **kw)
            ent[name] = {"dims": list(shape), "class": "single", "values": dump_value(a)}
        # Early allocation of unfiltered chunks gives the implicit index;
        # a compact dataset keeps its data in the object header.
        for name, shape, layout in [("implicit", (5, 4, 3), "implicit"), ("compact", (3, 2, 2), "compact")]:
            a = pattern(shape, "single", seed=len(name))
            arr = np.ascontiguousarray(np.transpose(a))
            dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
            if layout == "implicit":
                dcpl.set_chunk((2, 2, 2))
                dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
            else:
                dcpl.set_layout(h5py.h5d.COMPACT)
            space = h5py.h5s.create_simple(arr.shape)
            dsid = h5py.h5d.create(f.id, name.encode(), h5py.h5t.IEEE_F32LE, space, dcpl=dcpl)
            dsid.write(h5py.h5s.ALL, h5py.h5s.ALL, arr)
            f[name].attrs.create("MATLAB_class", np.bytes_("single"))
            ent[name] = {"dims": list(shape), "class": "single", "values": dump_value(a)}
    write_json("latest_index", ent)


if __name__ == "__main__":
    v5_files()
    v5_multi()
    v5_colmajor()
    v5_bigendian()
    v73_files()
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(EXPECTED, f, indent=None, separators=(",", ":"), sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(HERE, n)) for n in os.listdir(HERE))
    print("goldens written, %d files, %d bytes" % (len(os.listdir(HERE)), total))
