"""Whether this process runs under CI's sanitizer build, for the tests that cannot."""
from __future__ import annotations

import os

# CI's second run preloads AddressSanitizer into every process, Ray's own among them: Ray's
# vendored setproctitle then trips ASan's strcmp check as a worker starts (a heap-buffer-overflow
# read), and the worker dies; a test waiting for it waits for ever.
ASAN_PRELOADED = "libasan" in os.environ.get("LD_PRELOAD", "")
RAY_UNDER_ASAN = "Ray's workers do not start under a preloaded AddressSanitizer"
