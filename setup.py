"""Build of the C extension blokus._core from every C file under csrc/ (its layers: core, engine,
puzzles, python)."""
import glob
import os
import platform

import numpy
from setuptools import Extension, setup

# BLOKUS_SANITIZE=1 builds with AddressSanitizer and UndefinedBehaviorSanitizer
# (the CI's second build); BLOKUS_CFLAGS adds any other flags.
flags = ["-std=c11", "-O3", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"]
# Move generation counts bits all the time; every x86-64 CPU since 2008 has POPCNT. Set
# BLOKUS_PORTABLE=1 to build for older ones.
if platform.machine().lower() in ("x86_64", "amd64") and not os.environ.get("BLOKUS_PORTABLE"):
    flags.append("-mpopcnt")
link = []
if os.environ.get("BLOKUS_SANITIZE"):
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"]
    # -UNDEBUG: Python's own flags define NDEBUG; the engine's invariants are asserted here.
    flags = [f for f in flags if f != "-O3"] + ["-O1", "-g", "-UNDEBUG"] + sanitize
    link += sanitize
flags += os.environ.get("BLOKUS_CFLAGS", "").split()

setup(
    ext_modules=[
        Extension(
            "blokus._core",
            sources=sorted(glob.glob("csrc/**/*.c", recursive=True)),
            depends=sorted(glob.glob("csrc/**/*.h", recursive=True)),
            include_dirs=["csrc", numpy.get_include()],
            extra_compile_args=flags,
            extra_link_args=link,
            libraries=["m"],  # engine/mcts.c: sqrt, log, tanh; engine/playout_policy.c: sqrtf
        )
    ]
)
