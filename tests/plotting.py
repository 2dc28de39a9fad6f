"""matplotlib for the tests that draw, or a skip where it cannot be loaded."""
import os

import pytest

# CI's second run preloads AddressSanitizer, under which matplotlib's C++ extensions abort on
# import (ASan cannot intercept the C++ exceptions of a library loaded after it).
UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")


def matplotlib_or_skip():
    """The matplotlib module with the Agg backend; skips the test without it or under ASan."""
    if UNDER_ASAN:
        pytest.skip("matplotlib cannot be imported under a preloaded AddressSanitizer")
    mpl = pytest.importorskip("matplotlib", reason='needs matplotlib: pip install -e ".[plot]" runs it')
    mpl.use("Agg", force=True)
    return mpl
