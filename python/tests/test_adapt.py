"""omnihsr.upscale(..., adapt=...): per-scene adaptation from Python, as
``omnihsr upscale -adapt``: a few steps run and the result says what the
check chose and why; adapt=0 is the same array as no adapt argument."""

from __future__ import annotations

import os

import numpy as np
import pytest

omnihsr = pytest.importorskip("omnihsr")
from omnihsr import _lib  # noqa: E402


def _built() -> bool:
    """Whether the backend of these calls is there: the library, or the
    command for OMNIHSR_BACKEND=subprocess (and the wheels without the
    library)."""
    if os.environ.get("OMNIHSR_BACKEND", "").strip().lower() == "subprocess":
        return bool(_lib.binary_path())
    return os.path.exists(_lib.library_path()) or bool(_lib.binary_path())


pytestmark = pytest.mark.skipif(not _built(), reason="the OmniHSR library is not built (python/build.sh)")


def cube(h: int, w: int, b: int, seed: int = 0) -> np.ndarray:
    """A smooth cube with edges and a little noise, positive, float32."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    base = np.sin(x[..., None] / 3.0 + np.arange(b) / 5.0) * np.cos(y[..., None] / 4.0)
    edge = ((x + y // 3) % 11 < 5)[..., None] * 0.3
    return (1.5 + base + edge + 0.02 * rng.standard_normal((h, w, b))).astype(np.float32)


def test_adapt_steps_reported() -> None:
    # The check's reduced input, 24 x 24, is large enough to judge a
    # fine-tune (at least 24 pixels a side).
    x = cube(48, 48, 5)
    sr, res = omnihsr.upscale(x, scale=2, adapt=2, return_result=True, progress=False)
    assert sr.shape == (96, 96, 5) and sr.dtype == np.float32 and np.isfinite(sr).all()
    a = res["adapt"]
    assert a is not None, res
    # The check ran its 2 steps one scale down; the fine-tune on the input
    # ran only when the check kept it.
    assert a["check_steps"] == 2 and a["check"]
    assert a["choice"] in ("shipped", "other", "adapted")
    assert a["steps"] == (2 if a["choice"] == "adapted" else 0)
    assert a["shipped"] is not None and a["adapted"] is not None
    assert a["reason"] and "2 steps" in a["summary"] and a["too_small"] is False
    # Deterministic: the same call gives the same bytes and report.
    sr2, res2 = omnihsr.upscale(x, scale=2, adapt=2, return_result=True, progress=False)
    assert sr2.tobytes() == sr.tobytes() and res2["adapt"] == a


def test_adapt_too_small_keeps_shipped() -> None:
    x = cube(12, 10, 4, seed=1)
    plain = omnihsr.upscale(x, scale=2, progress=False)
    sr, res = omnihsr.upscale(x, scale=2, adapt="auto", return_result=True, progress=False)
    a = res["adapt"]
    assert a["choice"] == "shipped" and a["steps"] == 0 and a["check_steps"] == 0 and "too small" in a["reason"]
    assert a["too_small"] is True and not a["check"]
    assert sr.tobytes() == plain.tobytes()


def test_adapt_too_few_bands_trains_nothing() -> None:
    # A 24 x 24 check with 3 bands: checked, but too few bands to judge a
    # fine-tune, so none is trained.
    x = cube(48, 48, 3, seed=3)
    _, res = omnihsr.upscale(x, scale=2, adapt=2, return_result=True, progress=False)
    a = res["adapt"]
    assert a["too_small"] is True and a["check"] and a["check_steps"] == 0 and a["adapted"] is None
    assert a["choice"] in ("shipped", "other") and "too few" in a["reason"]


def test_adapt_zero_is_no_adapt() -> None:
    x = cube(24, 20, 6, seed=2)
    plain, rp = omnihsr.upscale(x, scale=2, return_result=True, progress=False)
    off, ro = omnihsr.upscale(x, scale=2, adapt=0, return_result=True, progress=False)
    assert off.tobytes() == plain.tobytes()
    assert rp.get("adapt") is None and ro.get("adapt") is None


@pytest.mark.parametrize("bad", [-3, "lots", 1.5])
def test_adapt_bad(bad) -> None:
    with pytest.raises(omnihsr.OptionError, match="adapt"):
        omnihsr.upscale(cube(8, 8, 3), scale=2, adapt=bad, progress=False)
