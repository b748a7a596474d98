"""Tests of omnihsr.runner (no QGIS): progress, messages, errors, cancel and
the executable's lookup, against small stand-in commands."""

import os
import signal
import stat
import sys
import threading
import time

import pytest

from omnihsr import runner


class Feedback:
    """The QgsProcessingFeedback methods runner calls, recorded."""

    def __init__(self, cancel_at=None):
        self.progress, self.info, self.commands = [], [], []
        self.cancel_at = cancel_at  # cancel once progress reaches this
        self.cancelled = False

    def isCanceled(self):  # noqa: N802
        return self.cancelled

    def cancel(self):
        self.cancelled = True

    def setProgress(self, p):  # noqa: N802
        self.progress.append(p)
        if self.cancel_at is not None and p >= self.cancel_at:
            self.cancelled = True

    def pushInfo(self, s):  # noqa: N802
        self.info.append(s)

    def pushCommandInfo(self, s):  # noqa: N802
        self.commands.append(s)


def script(tmp_path, body, name="fake-omnihsr"):
    """Writes an executable Python script standing in for omnihsr."""
    p = tmp_path / name
    p.write_text("#!%s\nimport os, sys, time, signal\n%s\n" % (sys.executable, body))
    p.chmod(p.stat().st_mode | stat.S_IXUSR)
    return str(p)


def test_progress_and_messages(tmp_path):
    fake = script(tmp_path, r"""
assert os.environ["OMNIHSR_PROGRESS"] == "1"
sys.stderr.write("upscale: noise 1.7\nprogress 0.250\nprogress 0.500\n"); sys.stderr.flush()
print("wrote %s: 4 x 4 x 1" % sys.argv[2])
sys.stderr.write("progress 1.000\n")
""")
    fb = Feedback()
    out = runner.run(fake, ["upscale", "x y.tif"], fb)
    assert out == "wrote x y.tif: 4 x 4 x 1"
    assert fb.progress == [25.0, 50.0, 100.0]
    assert sorted(fb.info) == sorted(["upscale: noise 1.7", "wrote x y.tif: 4 x 4 x 1"])
    assert fb.commands == [fake + " upscale 'x y.tif'"]


def test_failure_gives_the_commands_message(tmp_path):
    fake = script(tmp_path, r"""
sys.stderr.write("progress 0.100\nomnihsr upscale: in.tif: infinite value at row 3, column 4, band 2\n")
sys.exit(1)
""")
    with pytest.raises(runner.CliError) as e:
        runner.run(fake, ["upscale"], Feedback())
    assert str(e.value) == "omnihsr upscale: in.tif: infinite value at row 3, column 4, band 2 (exit 1)"
    assert not isinstance(e.value, runner.Cancelled)


def test_cancel_stops_and_removes_new_outputs(tmp_path):
    # The stand-in writes its output before finishing and dies on SIGTERM
    # without cleaning up (as a crash or a kill would): the runner removes
    # what the run created, ENVI header included, and keeps what was there.
    new, hdr, old = tmp_path / "new.img", tmp_path / "new.hdr", tmp_path / "old.tif"
    old.write_bytes(b"kept")
    fake = script(tmp_path, r"""
for p in sys.argv[1:]:
    open(p, "ab").write(b"partial")
open(sys.argv[1][:-4] + ".hdr", "w").write("ENVI")
sys.stderr.write("progress 0.300\n"); sys.stderr.flush()
time.sleep(60)
""")
    fb = Feedback(cancel_at=30)
    t0 = time.monotonic()
    with pytest.raises(runner.Cancelled) as e:
        runner.run(fake, [str(new), str(old)], fb, outputs=[str(new), str(old)])
    took = time.monotonic() - t0
    assert took < 5, "cancel took %.2f s" % took
    assert not new.exists() and not hdr.exists()
    assert old.read_bytes() == b"keptpartial"  # existed before: not the runner's to remove
    assert "removed" in str(e.value) and str(new) in str(e.value)


def test_cancel_kills_a_command_ignoring_sigterm(tmp_path):
    # Killed, the command cannot remove its temporary: the runner removes
    # the one of this process (by its PID) and leaves another process's.
    out = tmp_path / "q.tif"
    other = tmp_path / ".q.tif.omnihsr-tmp-1-0"
    other.write_bytes(b"another run's")
    fake = script(tmp_path, r"""
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(os.path.join(os.path.dirname(sys.argv[1]), ".q.tif.omnihsr-tmp-%d-1" % os.getpid()), "w").write("rows")
sys.stderr.write("progress 0.500\n"); sys.stderr.flush()
time.sleep(60)
""")
    fb = Feedback(cancel_at=50)
    t0 = time.monotonic()
    with pytest.raises(runner.Cancelled) as e:
        runner.run(fake, [str(out)], fb, outputs=[str(out)], kill_after_s=0.5)
    took = time.monotonic() - t0
    assert 0.5 <= took < 5, "took %.2f s" % took
    assert sorted(p.name for p in tmp_path.iterdir()) == [other.name, "fake-omnihsr"]
    assert ".omnihsr-tmp-" in str(e.value)


def test_cancel_from_another_thread_before_any_progress(tmp_path):
    fake = script(tmp_path, "time.sleep(60)")
    fb = Feedback()
    threading.Timer(0.3, fb.cancel).start()
    t0 = time.monotonic()
    with pytest.raises(runner.Cancelled) as e:
        runner.run(fake, [], fb)
    assert time.monotonic() - t0 < 5
    assert "no output was left" in str(e.value)


def fake_wheel(site, script_dir, exe):
    """Installs the metadata of an omnihsr wheel into the folder site (as
    pip does: omnihsr-V.dist-info with a RECORD naming the script
    ../SCRIPT_DIR/omnihsr relative to site)."""
    info = site / "omnihsr-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: omnihsr\nVersion: 0.1.0\n")
    rel = os.path.relpath(exe, site)
    (info / "RECORD").write_text("omnihsr/__init__.py,,\n%s,,\nomnihsr-0.1.0.dist-info/RECORD,,\n" % rel)


def test_find_binary(tmp_path, monkeypatch):
    # The order: the provider's setting, OMNIHSR_BIN, the omnihsr wheel in
    # this Python, PATH; locate says which one gave the executable.
    a = script(tmp_path, "", "a")
    b = script(tmp_path, "", "b")
    pathdir = tmp_path / "bin"
    pathdir.mkdir()
    onpath = script(pathdir, "", "omnihsr")
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    inwheel = script(tmp_path / "venv" / "bin", "", "omnihsr")
    site = tmp_path / "venv" / "lib" / "site-packages"
    fake_wheel(site, "bin", inwheel)
    monkeypatch.setenv("PATH", str(pathdir))
    monkeypatch.setenv(runner.ENV_BIN, b)
    assert runner.find_binary(a) == a  # the setting first
    assert runner.locate(a)[1] == "the OmniHSR provider setting (Processing options)"
    assert runner.locate("") == (b, "the environment variable OMNIHSR_BIN")  # then OMNIHSR_BIN
    monkeypatch.delenv(runner.ENV_BIN)
    assert runner.wheel_binary() == ""  # no omnihsr distribution on sys.path
    assert runner.locate("") == (onpath, "PATH")
    monkeypatch.syspath_prepend(str(site))
    assert runner.locate("") == (inwheel, "the omnihsr Python package installed in QGIS's Python")  # the wheel before PATH
    os.chmod(inwheel, 0o644)  # not executable: skipped
    assert runner.locate("") == (onpath, "PATH")
    with pytest.raises(runner.CliError, match="provider setting.*'/no/such/omnihsr', which is not an executable"):
        runner.find_binary("/no/such/omnihsr")
    monkeypatch.setenv(runner.ENV_BIN, str(tmp_path))
    with pytest.raises(runner.CliError, match="OMNIHSR_BIN names"):
        runner.find_binary("")
    monkeypatch.delenv(runner.ENV_BIN)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(runner.CliError, match="omnihsr executable was not found.*pip install omnihsr"):
        runner.find_binary("")


def test_timeout_stops_a_hung_command(tmp_path):
    # A command that prints one progress line, then nothing, ignoring
    # SIGTERM (hung): with timeout_s it is killed and TimedOut names the
    # setting; its new output and its temporary are removed. Without a
    # timeout, a command that prints more often than timeout_s runs on.
    # A shell script (it starts in milliseconds, even on a loaded machine,
    # well within the timeout); SIGTERM ignored survives the exec.
    out = tmp_path / "q.tif"
    fake = tmp_path / "hung"
    fake.write_text("#!/bin/sh\ntrap '' TERM\nprintf partial > \"$1\"\necho 'progress 0.100' >&2\nexec sleep 600\n")
    fake.chmod(0o755)
    fb = Feedback()
    t0 = time.monotonic()
    with pytest.raises(runner.TimedOut) as e:
        runner.run(str(fake), [str(out)], fb, outputs=[str(out)], timeout_s=2, kill_after_s=0.2)
    assert time.monotonic() - t0 < 60, "the runner did not return"
    assert "printed nothing for 2 s" in str(e.value) and "timeout setting" in str(e.value)
    assert "removed " + str(out) in str(e.value)
    assert not out.exists() and fb.progress == [10.0]
    assert not isinstance(e.value, runner.Cancelled)
    busy = script(tmp_path, r"""
for i in range(8):
    sys.stderr.write("progress 0.%d00\n" % i); sys.stderr.flush()
    time.sleep(0.1)
print("done")
""", "busy")
    assert runner.run(busy, [], Feedback(), timeout_s=5) == "done"


def test_exited_command_holding_no_pipes_returns(tmp_path):
    # The command exits while a child it started keeps its stdout open:
    # the runner returns soon after the exit instead of waiting for the
    # child.
    pidfile = tmp_path / "child.pid"
    fake = script(tmp_path, r"""
import subprocess
c = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open(sys.argv[1], "w").write(str(c.pid))
print("parent done")
""")
    t0 = time.monotonic()
    try:
        assert runner.run(fake, [str(pidfile)], Feedback()) == "parent done"
        assert time.monotonic() - t0 < 60, "the runner waited for the child"
    finally:
        os.kill(int(pidfile.read_text()), signal.SIGKILL)


def test_output_files():
    assert runner.output_files("/d/x.tif") == ["/d/x.tif"]
    assert runner.output_files("/d/x.IMG") == ["/d/x.IMG", "/d/x.hdr"]
    assert os.path.basename(runner.output_files("x.dat")[1]) == "x.hdr"
