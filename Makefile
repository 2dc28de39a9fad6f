# The edit-build-test loop (CONTRIBUTING.md); run in the checkout, inside its venv.
PYTHON ?= python
T ?=

.PHONY: build test fast lint

# the C extension in place: only the C files changed since the last build, on every core
build:
	$(PYTHON) setup.py -q build_ext --inplace

# build, then the tests named in T (make test T="tests/test_rules.py -k corner"); all without T
test: build
	$(PYTHON) -m pytest -q $(T)

# build, then the fast subset (no browser, notebook, Ray, training or long-search test)
fast: build
	$(PYTHON) -m pytest -q -m "not slow" $(T)

# ruff and mypy, as .ci/run runs them
lint:
	ruff check .
	mypy
