"""Issue 39 items 1 and 2 from Python (fixed in the library by h39)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

import omnihsr
from conftest import run_python


def test_failed_scales_keep_existing_files(tmp_path: Path) -> None:
    """upscale_file(scales=[2, 4, 8]) where c2 and c4 exist and c8 is a
    directory: the call fails and c2 and c4 are as they were."""
    np.save(tmp_path / "in.npy", np.ones((6, 5, 3), np.float32))
    for s in (2, 4):
        (tmp_path / f"c{s}.npy").write_bytes(b"mine %d" % s)
    (tmp_path / "c8.npy").mkdir()
    with pytest.raises(omnihsr.OmniHSRError, match="c8.npy"):
        omnihsr.upscale_file(tmp_path / "in.npy", tmp_path / "c{scale}.npy", scales=[2, 4, 8])
    assert [(tmp_path / f"c{s}.npy").read_bytes() for s in (2, 4)] == [b"mine 2", b"mine 4"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c2.npy", "c4.npy", "c8.npy", "in.npy"]


HUGE = r'''
import json, resource
import numpy as np
import omnihsr
resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
out = {}
try:
    omnihsr.upscale(np.ones((4, 4, 3), np.float32), size=(20000, 20000), method="bicubic")
    out["got"] = "finished"
except (omnihsr.OmniHSRError, MemoryError) as e:
    out["got"] = type(e).__name__
    out["message"] = str(e)[:300]
print(json.dumps(out))
'''


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS as Linux applies it")
def test_huge_output_is_an_error_not_an_abort() -> None:
    p = run_python(HUGE, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])  # not SIGABRT (-6)
    r = json.loads(p.stdout.strip().splitlines()[-1])
    print("huge output:", r)
    assert r["got"] in ("OmniHSRError", "MemoryError"), r
