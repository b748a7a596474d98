"""Errors arrive as Python exceptions carrying the library's message."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import omnihsr
from conftest import write_envi


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as e:
        omnihsr.open(tmp_path / "none.hdr")
    assert isinstance(e.value, omnihsr.NotFoundError)
    assert "none.hdr" in str(e.value) and "no such file" in str(e.value)
    with pytest.raises(omnihsr.NotFoundError):
        omnihsr.upscale_file(tmp_path / "none.npy", tmp_path / "out.npy", scale=2)
    assert not (tmp_path / "out.npy").exists()


@pytest.mark.parametrize("kwargs,text", [
    ({}, "give scale (a factor) or size (height, width)"),
    ({"scale": 0}, "scale 0: want a finite number > 0"),
    ({"scale": -2}, "scale -2"),
    ({"scale": 2, "size": (4, 4)}, "exactly one of scale and size"),
    ({"scale": 2, "method": "magic"}, "magic"),
    ({"scale": 2, "noise": "loud"}, "noise \"loud\""),
    ({"scale": 2, "noise": [0.1, 0.2]}, "Noise.Sigma has 2 values, the input has 3 bands"),
    ({"scale": 2, "weights": "/nonexistent.omw"}, "/nonexistent.omw"),
])
def test_bad_options(kwargs: dict, text: str) -> None:
    x = np.ones((4, 5, 3), np.float32)
    with pytest.raises(omnihsr.OmniHSRError) as e:
        omnihsr.upscale(x, **kwargs)
    assert text in str(e.value)


def test_option_errors_are_value_errors() -> None:
    with pytest.raises(ValueError):
        omnihsr.upscale(np.ones((4, 5, 3), np.float32), scale=0.0)
    with pytest.raises(ValueError):
        omnihsr.upscale(np.ones((4, 5, 3, 2), np.float32), scale=2)
    with pytest.raises(ValueError, match="unknown reader option"):
        omnihsr.open("x.hdr", bogus=1)


def test_bad_data(tmp_path: Path) -> None:
    x = np.ones((4, 5, 3), np.float32)
    x[1, 2, 0] = np.inf
    with pytest.raises(omnihsr.OmniHSRError, match=r"\+Inf at row 1, column 2, band 0"):
        omnihsr.upscale(x, scale=2)
    hdr = write_envi(tmp_path / "inf", x)
    with pytest.raises(omnihsr.OmniHSRError, match=r"inf\.img: 1 infinite value.*\+Inf, at row 1, column 2, band 0"):
        omnihsr.open(hdr)
    bad = tmp_path / "bad.npy"
    bad.write_bytes(b"\x93NUMPY not really")
    with pytest.raises(omnihsr.OmniHSRError, match="bad.npy"):
        omnihsr.open(bad)
    # The output's format must be known before anything is read.
    with pytest.raises(omnihsr.OmniHSRError, match="out.xyz"):
        omnihsr.upscale_file(hdr, tmp_path / "out.xyz", scale=2)
    # An output that is the input is refused.
    np.save(tmp_path / "same.npy", np.ones((4, 5, 3), np.float32))
    with pytest.raises(omnihsr.OmniHSRError, match="would replace the input"):
        omnihsr.upscale_file(tmp_path / "same.npy", tmp_path / "same.npy", scale=2)


def test_errors_per_thread() -> None:
    """Each call's error is its own, whichever threads fail at once."""
    from concurrent.futures import ThreadPoolExecutor

    def fail(i: int) -> str:
        try:
            omnihsr.upscale(np.ones((4, 5, 3), np.float32), scale=-float(i + 1))
        except omnihsr.OptionError as e:
            return str(e)
        return ""

    with ThreadPoolExecutor(8) as ex:
        msgs = list(ex.map(fail, range(64)))
    for i, m in enumerate(msgs):
        assert f"scale -{i + 1}:" in m, (i, m)
