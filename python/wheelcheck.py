"""Checks omnihsr wheels: python/wheelcheck.py WHEEL...

For each wheel (build.sh --all runs it on the five it builds):
- the file name's tag is py3-none-PLATFORM with a platform build.sh makes;
- every binary in it (the C ABI library in omnihsr/_bin/, the omnihsr
  executable among the scripts) is of the platform's OS and architecture,
  as `file` reports it; the wheel holds the executable, and the library
  except on macOS;
- a manylinux wheel's library needs no glibc symbol version newer than
  its tag says, and no shared library but glibc's (objdump);
- .dist-info holds the LICENSE (the repository's, byte for byte) and
  METADATA names Apache-2.0;
- what this machine can run, it runs: each linux executable's `version`,
  and python/tests/abi_example.c compiled against each linux wheel's
  library and header (the aarch64 ones with aarch64-linux-gnu-gcc, run
  under qemu-aarch64-static); given both linux wheels, the two print the
  same values, bit for bit.
Prints one line a wheel; exits 1 naming every problem.
"""

import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# What `file` says of each platform's binaries: (library, executable).
FILE_SAYS = {
    "x86_64": (r"ELF 64-bit LSB shared object, x86-64", r"ELF 64-bit LSB executable, x86-64, .*statically linked"),
    "aarch64": (r"ELF 64-bit LSB shared object, ARM aarch64", r"ELF 64-bit LSB executable, ARM aarch64, .*statically linked"),
    "macosx_arm64": (None, r"Mach-O 64-bit arm64 executable"),
    "macosx_x86_64": (None, r"Mach-O 64-bit x86_64 executable"),
    "win_amd64": (r"PE32\+ executable \(DLL\) .*x86-64", r"PE32\+ executable \(console\) x86-64"),
}

# The shared libraries a manylinux wheel may need: glibc's (the dynamic
# loader is named by libc itself since glibc 2.34).
GLIBC_LIBS = {"libc.so.6", "libm.so.6", "libdl.so.2", "libpthread.so.0", "librt.so.1", "libresolv.so.2",
              "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}

TAG = re.compile(r"^omnihsr-([^-]+)-py3-none-(manylinux_2_(\d+)_(x86_64|aarch64)|macosx_\d+_\d+_(arm64|x86_64)|win_amd64)\.whl$")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def check(path, problems, notes, outputs):
    name = os.path.basename(path)
    m = TAG.match(name)
    if not m:
        problems.append(f"{name}: not py3-none-PLATFORM with a platform build.sh makes")
        return
    version, plat, glibc_minor, linux_arch, mac_arch = m.groups()
    kind = linux_arch or (f"macosx_{mac_arch}" if mac_arch else plat)
    lib_re, exe_re = FILE_SAYS[kind]
    exe_name = "omnihsr.exe" if plat == "win_amd64" else "omnihsr"
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(path) as z:
        names = z.namelist()
        libs = [n for n in names if n.startswith("omnihsr/_bin/") and n.endswith((".so", ".dylib", ".dll"))]
        exes = [n for n in names if n == f"omnihsr-{version}.data/scripts/{exe_name}"]
        lic = f"omnihsr-{version}.dist-info/LICENSE"
        if not exes:
            problems.append(f"{name}: no {exe_name} among the scripts")
        if lib_re and len(libs) != 1:
            problems.append(f"{name}: want one library in omnihsr/_bin/, found {libs}")
        if not lib_re and libs:
            problems.append(f"{name}: a macOS wheel holds no library, found {libs}")
        if lic not in names:
            problems.append(f"{name}: no {lic}")
        else:
            with open(os.path.join(ROOT, "LICENSE"), "rb") as f:
                if z.read(lic) != f.read():
                    problems.append(f"{name}: {lic} differs from the repository's LICENSE")
        meta = z.read(f"omnihsr-{version}.dist-info/METADATA").decode()
        if "\nLicense: Apache-2.0\n" not in meta:
            problems.append(f"{name}: METADATA does not name the licence Apache-2.0")
        z.extractall(tmp)
        said = []
        for member, want in [(n, lib_re) for n in libs] + [(n, exe_re) for n in exes]:
            p = os.path.join(tmp, member)
            what = run(["file", "-b", p]).stdout.strip()
            said.append(f"{os.path.basename(member)}: {what.split(',')[0]}, {what.split(',')[1].strip() if ',' in what else ''}")
            if not re.search(want, what):
                problems.append(f"{name}: {member}: `file` says {what!r}, want /{want}/")
        if glibc_minor and libs:
            lib = os.path.join(tmp, libs[0])
            objdump = "aarch64-linux-gnu-objdump" if linux_arch == "aarch64" and platform.machine() != "aarch64" else "objdump"
            if not shutil.which(objdump):
                problems.append(f"{name}: {objdump} not found: glibc versions unchecked")
            else:
                syms = run([objdump, "-T", lib]).stdout
                vers = sorted({int(v) for v in re.findall(r"GLIBC_2\.(\d+)", syms)})
                if vers and vers[-1] > int(glibc_minor):
                    problems.append(f"{name}: the library needs GLIBC_2.{vers[-1]}, the tag says 2.{glibc_minor}")
                needed = set(re.findall(r"NEEDED\s+(\S+)", run([objdump, "-p", lib]).stdout))
                if needed - GLIBC_LIBS:
                    problems.append(f"{name}: the library needs {sorted(needed - GLIBC_LIBS)}, outside glibc")
        if linux_arch and exes:
            exe = os.path.join(tmp, exes[0])
            os.chmod(exe, 0o755)
            runner = []
            if linux_arch != platform.machine():
                emu = f"qemu-{linux_arch}-static"
                if not shutil.which(emu):
                    problems.append(f"{name}: {emu} not found (apt-get install qemu-user-static): the executable was not run")
                    exe = None
                runner = [emu]
            if exe:
                first = run(runner + [exe, "version"]).stdout.partition("\n")[0]
                said.append(f"`{' '.join(runner + ['omnihsr', 'version'])}`: {first}")
                if not first.startswith("omnihsr "):
                    problems.append(f"{name}: `omnihsr version` printed {first!r}")
        if linux_arch and libs:
            said.append(abi_example(name, linux_arch, os.path.join(tmp, "omnihsr", "_bin"), tmp, problems, outputs))
    notes.append(f"{name}: " + "; ".join(said))


def write_npy(path, h, w, b):
    """Writes an (h, w, b) little-endian float32 NPY file of i / 7."""
    import struct
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d, %d), }" % (h, w, b)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % (h * w * b), *[i / 7 for i in range(h * w * b)]))


def abi_example(name, arch, bindir, tmp, problems, outputs):
    """Compiles python/tests/abi_example.c for arch against the wheel's
    library and header and runs it (under qemu-ARCH-static on another
    architecture); returns a note. Its output (the bicubic upscale's
    values in hex, the read cube's) goes into outputs[arch]."""
    native = arch == platform.machine()
    cc = "gcc" if native else f"{arch}-linux-gnu-gcc"
    runner = [] if native else [f"qemu-{arch}-static"]
    for tool in [cc] + runner:
        if not shutil.which(tool):
            problems.append(f"{name}: {tool} not found: the library was not run")
            return ""
    exe = os.path.join(tmp, "abi_example")
    src = os.path.join(HERE, "tests", "abi_example.c")
    p = run([cc, "-std=c99", "-Wall", "-Werror", "-o", exe, src, "-I", bindir, "-L", bindir, "-lomnihsr"])
    if p.returncode != 0:
        problems.append(f"{name}: {cc} abi_example.c: {p.stderr.strip()}")
        return ""
    npy = os.path.join(tmp, "in.npy")
    write_npy(npy, 4, 5, 3)
    env = dict(os.environ, LD_LIBRARY_PATH=bindir, QEMU_LD_PREFIX=f"/usr/{arch}-linux-gnu")
    p = run(runner + [exe, npy], env=env)
    lines = p.stdout.splitlines()
    if p.returncode != 0 or not any(ln.startswith("upscale 0 ") for ln in lines):
        problems.append(f"{name}: abi_example: exit {p.returncode}: {p.stdout.strip()} {p.stderr.strip()}")
        return ""
    outputs[arch] = [ln for ln in lines if not ln.startswith(("version ", "result "))]
    values = sum(ln.startswith("v ") for ln in lines)
    return f"abi_example.c over the library{' under ' + runner[0] if runner else ''}: exit 0, {values} values"


def main(paths):
    problems, notes, outputs = [], [], {}
    for p in paths:
        check(p, problems, notes, outputs)
    if len(outputs) == 2:
        if outputs["x86_64"] != outputs["aarch64"]:
            problems.append("abi_example: the aarch64 library's output differs from the x86_64 one's")
        else:
            notes.append("abi_example: the aarch64 and x86_64 libraries print the same values (%d lines)" % len(outputs["x86_64"]))
    for n in notes:
        print("wheelcheck: " + n)
    for p in problems:
        print("wheelcheck: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
