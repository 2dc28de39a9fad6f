"""Runs the fuzz targets of this folder, each for a bounded number of inputs.

    python tests/fuzz/run.py --work DIR [--runs N] [--seconds S] [TARGET ...]

Each target starts from its committed seed corpus (``corpus/<target>/``) and from what earlier
runs with the same ``--work`` folder found, and adds the inputs that reach new code to
``DIR/<target>/``. CI runs it twice: on the normal build, where coverage guides the search and
the corpus grows, then on the AddressSanitizer build (under ``LD_PRELOAD`` of libasan), which
replays that corpus and mutates it further; gcc's libasan shadows libFuzzer's coverage hooks, so
that second run is blind but catches every memory error. A crash, an uncaught exception or a
sanitizer report fails the run and prints the input that caused it (hex and base64).
"""
import argparse
import base64
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = sorted(p.stem.removeprefix("fuzz_") for p in HERE.glob("fuzz_*.py"))


def run_target(name: str, work: Path, runs: int, seconds: int) -> bool:
    corpus = work / name
    corpus.mkdir(parents=True, exist_ok=True)
    artifacts = work / f"{name}-artifacts"
    shutil.rmtree(artifacts, ignore_errors=True)
    artifacts.mkdir()
    command = [sys.executable, str(HERE / f"fuzz_{name}.py"), str(corpus), str(HERE / "corpus" / name),
               f"-runs={runs}", f"-max_total_time={seconds}", "-max_len=4096", "-timeout=30",
               # the search target's process grows by some 0.4 GB a second under coverage-guided
               # atheris (not when its inputs are replayed alone, nor on the ASan build)
               "-rss_limit_mb=16384", f"-artifact_prefix={artifacts}/", "-print_final_stats=1"]
    result = subprocess.run(command, cwd=HERE, capture_output=True, text=True, errors="replace")
    progress = [line for line in result.stderr.splitlines() if re.match(r"#\d+\s", line)]
    print(f"{name}: exit {result.returncode}; {progress[-1] if progress else 'no inputs run'}", flush=True)
    if result.returncode == 0:
        return True
    print(result.stderr[-20000:])
    for found in sorted(artifacts.iterdir()):
        data = found.read_bytes()
        print(f"--- input {found.name} ({len(data)} bytes)\nhex: {data.hex()}\n"
              f"base64: {base64.b64encode(data).decode()}")
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"targets to run (default: all: {', '.join(TARGETS)})")
    parser.add_argument("--work", type=Path, required=True, help="folder for the growing corpora and crashes")
    parser.add_argument("--runs", type=int, default=20000, help="inputs per target (default 20000)")
    parser.add_argument("--seconds", type=int, default=20, help="at most this long per target (default 20)")
    args = parser.parse_args()
    unknown = set(args.targets) - set(TARGETS)
    if unknown:
        parser.error(f"unknown targets {', '.join(sorted(unknown))} (expected some of: {', '.join(TARGETS)})")
    failed = [name for name in args.targets or TARGETS if not run_target(name, args.work, args.runs, args.seconds)]
    if failed:
        print(f"fuzzing found problems in: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
