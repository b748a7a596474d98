"""Read and write OmniHSR weight files (*.omw) and Go checkpoints bit-exactly.

The container is the Go package nn's checkpoint format, version 1
(internal/nn/checkpoint.go; all integers little-endian):

    magic   8 bytes  b"\\x89OMNIHSR"
    version uint32   1
    hlen    uint32   length of the JSON header
    header  hlen bytes of JSON: kind, config, meta, optimizer, extra,
            tensors [{name, shape [4], offset}], payload_bytes
    payload float32 values of every tensor at the byte offsets given
    crc     uint32   CRC-32C (Castagnoli) of every byte before it

Go stores every tensor with a 4-D shape in its own layout (NHWC-style):
a convolution is Cout x K x K x Cin, a linear map Cout x 1 x 1 x Cin, a bias
or LayerNorm affine 1 x 1 x 1 x C. `to_torch` and `from_torch` convert to
and from PyTorch's layouts (Cout x Cin x K x K, Cout x Cin, C).

Bit-exactness: `read` keeps the raw JSON text of every header field other
than the tensor table, and `write` emits the header as Go's encoding/json
does (compact, keys in Go's order, strings escaped as Go escapes them), so
reading a file and writing it back with the same tensors gives the same
bytes; a file written here reads back in Go unchanged.
"""

import json
import os
import struct
import tempfile

import numpy as np

MAGIC = b"\x89OMNIHSR"
VERSION = 1
MAX_HEADER = 64 << 20

# Go's field order of checkpointHeader; tensors and payload_bytes are made here.
_HEADER_ORDER = ["kind", "config", "meta", "optimizer", "extra"]


class FormatError(ValueError):
    """A file that is not a valid OmniHSR checkpoint or weight file."""


def _crc32c_table():
    poly = 0x82F63B78
    t = np.zeros(256, dtype=np.uint32)
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        t[i] = c
    return t


_TABLE = _crc32c_table()
# Slicing-by-4 tables: _T4[k][b] advances the CRC of byte b by k more bytes.
_T4 = [_TABLE]
for _k in range(1, 4):
    prev = _T4[-1]
    _T4.append((prev >> np.uint32(8)) ^ _TABLE[prev & np.uint32(0xFF)])
_T4 = [t.tolist() for t in _T4]


def crc32c(data):
    """CRC-32C (Castagnoli) of data, as Go's crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli))."""
    t0, t1, t2, t3 = _T4
    crc = 0xFFFFFFFF
    mv = memoryview(data)
    n4 = len(mv) // 4 * 4
    words = np.frombuffer(mv[:n4], dtype="<u4").tolist()
    for w in words:
        x = crc ^ w
        crc = t3[x & 0xFF] ^ t2[(x >> 8) & 0xFF] ^ t1[(x >> 16) & 0xFF] ^ t0[x >> 24]
    for b in mv[n4:]:
        crc = t0[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _skip_ws(s, i):
    while i < len(s) and s[i] in " \t\r\n":
        i += 1
    return i


def _skip_value(s, i):
    """Index just past the JSON value starting at s[i] (s is a str)."""
    i = _skip_ws(s, i)
    c = s[i]
    if c == '"':
        i += 1
        while s[i] != '"':
            i += 2 if s[i] == "\\" else 1
        return i + 1
    if c in "{[":
        close = "}" if c == "{" else "]"
        i = _skip_ws(s, i + 1)
        if s[i] == close:
            return i + 1
        while True:
            if c == "{":
                i = _skip_value(s, i)  # key
                i = _skip_ws(s, i)
                if s[i] != ":":
                    raise FormatError("bad header: expected ':' at %d" % i)
                i += 1
            i = _skip_value(s, i)
            i = _skip_ws(s, i)
            if s[i] == close:
                return i + 1
            if s[i] != ",":
                raise FormatError("bad header: expected ',' at %d" % i)
            i += 1
    j = i
    while j < len(s) and s[j] not in ",}] \t\r\n":
        j += 1
    if j == i:
        raise FormatError("bad header: empty value at %d" % i)
    return j


def _raw_fields(header):
    """The top-level fields of a JSON object as (key, raw text) pairs, in order."""
    i = _skip_ws(header, 0)
    if header[i] != "{":
        raise FormatError("bad header: not a JSON object")
    out = []
    i = _skip_ws(header, i + 1)
    if header[i] == "}":
        return out
    while True:
        k_end = _skip_value(header, i)
        key = json.loads(header[i:k_end])
        i = _skip_ws(header, k_end)
        if header[i] != ":":
            raise FormatError("bad header: expected ':' after key %r" % key)
        v0 = _skip_ws(header, i + 1)
        v1 = _skip_value(header, v0)
        out.append((key, header[v0:v1]))
        i = _skip_ws(header, v1)
        if header[i] == "}":
            return out
        if header[i] != ",":
            raise FormatError("bad header: expected ',' after field %r" % key)
        i = _skip_ws(header, i + 1)


def go_json(obj):
    """JSON text as Go's json.Marshal writes it for plain values: compact,
    '<', '>', '&', U+2028 and U+2029 escaped. Floats must already be what Go
    would print (this is for metadata; use numbers Go prints the same way,
    such as integers and short decimals, or strings)."""
    s = json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


class Weights:
    """A decoded checkpoint or weight file.

    fields:  the raw JSON text of every header field except the tensor table,
             by key, in file order ("kind", "config", "meta", ...).
    tensors: name -> (shape (4 ints), float32 numpy array of the values), in file order.
    """

    def __init__(self, fields=None, tensors=None):
        self.fields = dict(fields or {})
        self.tensors = dict(tensors or {})

    @property
    def kind(self):
        return json.loads(self.fields.get("kind", '"weights"'))

    @property
    def config(self):
        return json.loads(self.fields["config"]) if "config" in self.fields else None

    @property
    def meta(self):
        return json.loads(self.fields["meta"]) if "meta" in self.fields else None

    def params(self):
        """The weight tensors (without the Adam moments of a checkpoint)."""
        return {k: v for k, v in self.tensors.items() if not k.startswith(("adam.m/", "adam.v/"))}


def decode(data, name="<bytes>"):
    """Decode a checkpoint held in memory; name is used in error messages."""
    def fail(msg):
        raise FormatError("omw: %s: %s" % (name, msg))

    if len(data) < 8 or data[:8] != MAGIC:
        fail("not an OmniHSR checkpoint (bad magic number)")
    if len(data) < 16:
        fail("truncated: %d bytes, shorter than the 16-byte preamble" % len(data))
    version, hlen = struct.unpack_from("<II", data, 8)
    if version != VERSION:
        fail("format version %d, this program reads version %d" % (version, VERSION))
    if hlen > MAX_HEADER:
        fail("header length %d is implausible (corrupt file?)" % hlen)
    if len(data) < 16 + hlen:
        fail("truncated: header of %d bytes, file has %d bytes after the preamble" % (hlen, len(data) - 16))
    header = data[16:16 + hlen].decode("utf-8")
    try:
        raw = _raw_fields(header)
        h = json.loads(header)
    except (ValueError, IndexError) as e:
        fail("bad header: %s" % e)
    pb = h.get("payload_bytes", 0)
    if not isinstance(pb, int) or pb < 0 or pb % 4:
        fail("bad payload size %r" % pb)
    want = 16 + hlen + pb + 4
    if len(data) < want:
        fail("truncated: %d bytes, the header describes %d" % (len(data), want))
    if len(data) > want:
        fail("%d unexpected bytes after the end of the checkpoint" % (len(data) - want))
    stored = struct.unpack_from("<I", data, want - 4)[0]
    got = crc32c(data[:want - 4])
    if got != stored:
        fail("corrupt: checksum mismatch (stored %08x, computed %08x)" % (stored, got))
    if h.get("kind") not in ("checkpoint", "weights"):
        fail("unknown kind %r" % h.get("kind"))
    payload = data[16 + hlen:want - 4]
    w = Weights()
    for key, text in raw:
        if key not in ("tensors", "payload_bytes"):
            w.fields[key] = text
    for e in h.get("tensors") or []:
        shape = tuple(e["shape"])
        if len(shape) != 4 or any(d < 0 or d > 1 << 31 for d in shape):
            fail("tensor %r has a bad shape %r" % (e["name"], e["shape"]))
        n = int(np.prod(shape, dtype=np.int64))
        off = e["offset"]
        if off < 0 or off % 4 or off + 4 * n > len(payload):
            fail("tensor %r (shape %r, offset %d) lies outside the %d-byte payload" % (e["name"], shape, off, len(payload)))
        if e["name"] in w.tensors:
            fail("duplicate tensor %r" % e["name"])
        w.tensors[e["name"]] = (shape, np.frombuffer(payload, dtype="<f4", count=n, offset=off).copy())
    return w


def read(path):
    """Read and check a weight file or checkpoint."""
    with open(path, "rb") as f:
        return decode(f.read(), path)


def encode(w):
    """The bytes of w in the container format (tensors in w.tensors' order)."""
    entries, blobs, off = [], [], 0
    for name, (shape, data) in w.tensors.items():
        a = np.ascontiguousarray(data, dtype="<f4").reshape(-1)
        if len(shape) != 4 or int(np.prod(shape)) != a.size:
            raise ValueError("omw: tensor %r: shape %r for %d values" % (name, shape, a.size))
        entries.append('{"name":%s,"shape":[%d,%d,%d,%d],"offset":%d}' % ((go_json(name),) + tuple(int(d) for d in shape) + (off,)))
        blobs.append(a.tobytes())
        off += 4 * a.size
    parts = []
    order = [k for k in _HEADER_ORDER if k in w.fields] + [k for k in w.fields if k not in _HEADER_ORDER]
    if "kind" not in w.fields:
        parts.append('"kind":"weights"')
    for k in order:
        parts.append("%s:%s" % (go_json(k), w.fields[k]))
    parts.append('"tensors":[%s]' % ",".join(entries))
    parts.append('"payload_bytes":%d' % off)
    header = ("{" + ",".join(parts) + "}").encode("utf-8")
    body = MAGIC + struct.pack("<II", VERSION, len(header)) + header + b"".join(blobs)
    return body + struct.pack("<I", crc32c(body))


def write(path, w):
    """Write w to path atomically (a temporary file renamed into place)."""
    data = encode(w)
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".tmp-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def to_torch(shape, data, torch_shape):
    """Convert a Go tensor (4-D shape, flat values) to a numpy array of a
    PyTorch parameter's shape: K x K convolutions (Cout x K x K x Cin ->
    Cout x Cin x K x K), linear maps (Cout x 1 x 1 x Cin -> Cout x Cin),
    vectors (1 x 1 x 1 x C -> C)."""
    a = np.asarray(data, dtype=np.float32).reshape(shape)
    torch_shape = tuple(torch_shape)
    if len(torch_shape) == 4:
        a = a.transpose(0, 3, 1, 2)
    elif len(torch_shape) == 2:
        if shape[1] != 1 or shape[2] != 1:
            raise ValueError("omw: %r is not a linear map" % (shape,))
        a = a.reshape(shape[0], shape[3])
    elif len(torch_shape) == 1:
        if shape[:3] != (1, 1, 1):
            raise ValueError("omw: %r is not a vector" % (shape,))
        a = a.reshape(shape[3])
    if a.shape != torch_shape:
        raise ValueError("omw: Go shape %r does not give the PyTorch shape %r" % (shape, torch_shape))
    return np.ascontiguousarray(a)


def from_torch(a):
    """The Go shape and flat float32 values of a PyTorch parameter (numpy array)."""
    a = np.asarray(a, dtype=np.float32)
    if a.ndim == 4:
        g = a.transpose(0, 2, 3, 1)
    elif a.ndim == 2:
        g = a.reshape(a.shape[0], 1, 1, a.shape[1])
    elif a.ndim == 1:
        g = a.reshape(1, 1, 1, a.shape[0])
    else:
        raise ValueError("omw: a parameter of %d dimensions" % a.ndim)
    return tuple(int(d) for d in g.shape), np.ascontiguousarray(g).reshape(-1)
