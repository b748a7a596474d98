"""pytest set-up for the plugin's tests: the plugin package on sys.path and,
for the tests that need it, a headless QgsApplication with the provider
registered.

Run with Debian's python3 and python3-qgis (qgis/ci.sh does):
    QT_QPA_PLATFORM=offscreen OMNIHSR_BIN=/path/to/omnihsr python3 -m pytest qgis/tests
"""

import os
import shutil
import sys

import pytest

QGIS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(QGIS_DIR)
SAMPLE = os.path.join(REPO, "sample", "L7_ETMs.tif")

sys.path.insert(0, QGIS_DIR)  # `import omnihsr` is the plugin, not the Python package
sys.path.append("/usr/share/qgis/python/plugins")  # the Processing plugin


def omnihsr_bin():
    """The omnihsr executable under test: $OMNIHSR_BIN (qgis/ci.sh builds it)."""
    path = os.environ.get("OMNIHSR_BIN", "")
    if not (path and os.access(path, os.X_OK)):
        pytest.skip("OMNIHSR_BIN does not name the omnihsr executable (go build -o ... ./cmd/omnihsr)")
    return path


@pytest.fixture
def sample(tmp_path):
    """A copy of the bundled sample (QGIS and GDAL may write a .aux.xml
    beside the rasters they open: never beside the repository's)."""
    p = tmp_path / "in" / "L7_ETMs.tif"
    p.parent.mkdir()
    shutil.copyfile(SAMPLE, p)
    return str(p)


@pytest.fixture(scope="session")
def qgis_app(tmp_path_factory):
    """A headless QgsApplication (its own profile folder) with Processing
    initialised and the OmniHSR plugin loaded as QGIS loads it."""
    pytest.importorskip("qgis.core", reason="python3-qgis is not installed")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from qgis.core import QgsApplication

    QgsApplication.setPrefixPath("/usr", True)
    app = QgsApplication([], False, str(tmp_path_factory.mktemp("profile")))
    app.initQgis()
    from processing.core.Processing import Processing

    Processing.initialize()
    import omnihsr

    assert os.path.dirname(os.path.dirname(omnihsr.__file__)) == QGIS_DIR, omnihsr.__file__
    plugin = omnihsr.classFactory(None)
    plugin.initProcessing()
    yield app
    plugin.unload()
    app.exitQgis()
