"""The platform parts of the omnihsr wheel (the rest is in pyproject.toml).

build.sh builds, for one target at a time, the C ABI library into
omnihsr/_bin/ (none for macOS, whose wheels run the executable), the
omnihsr executable into build/bin/ (its name in OMNIHSR_EXE: omnihsr, or
omnihsr.exe for Windows), copies the repository's LICENSE here, and names
the platform tag in OMNIHSR_PLAT: the wheel is then tagged
py3-none-<platform> (ctypes: any Python 3, no Python ABI), carries the
executable as a script, installed on PATH, and the licence in .dist-info.
"""

import os

from setuptools import setup
from setuptools.dist import Distribution
from distutils.command.build_scripts import build_scripts  # setuptools 66 has no own
from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join("build", "bin", os.environ.get("OMNIHSR_EXE") or ("omnihsr.exe" if os.name == "nt" else "omnihsr"))


class PlatformWheel(bdist_wheel):
    """A wheel for one platform, any Python 3."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        plat = os.environ.get("OMNIHSR_PLAT")
        if not plat:
            raise SystemExit("setup.py: OMNIHSR_PLAT is not set: build the wheel with python/build.sh")
        return "py3", "none", plat


class BinaryDistribution(Distribution):
    """Holds a shared library: installed as platform code (platlib)."""

    def has_ext_modules(self) -> bool:
        return True


class CopyScripts(build_scripts):
    """Copies the scripts as they are: the omnihsr command is a binary,
    which distutils would read as Python to rewrite its #! line."""

    def copy_scripts(self):
        self.mkpath(self.build_dir)
        outfiles = []
        for script in self.scripts:
            out = os.path.join(self.build_dir, os.path.basename(script))
            self.copy_file(script, out)
            os.chmod(out, 0o755)
            outfiles.append(out)
        return outfiles, outfiles


LIBS = ("libomnihsr.so", "libomnihsr.dylib", "omnihsr.dll")
# A macOS wheel holds the executable only; every other one the library too.
_needs_lib = not os.environ.get("OMNIHSR_PLAT", "").startswith("macosx_")
if _needs_lib and not any(os.path.exists(os.path.join(HERE, "omnihsr", "_bin", n)) for n in LIBS):
    raise SystemExit(f"setup.py: omnihsr/_bin/ holds none of {LIBS}: build the wheel with python/build.sh")
for _need in (BIN, "LICENSE"):
    if not os.path.exists(os.path.join(HERE, _need)):
        raise SystemExit(f"setup.py: {_need} is missing: build the wheel with python/build.sh")

setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel, "build_scripts": CopyScripts}, scripts=[BIN])
