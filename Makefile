# cardtable: two commands on a fresh Debian or Raspberry Pi OS machine, `make demo` and `make test`.
# Each sets up .venv itself (idempotent; fast once done) and needs only Python 3.11+ and make.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SYSTEM_STAMP := $(VENV)/.system-libs
# On a Raspberry Pi, picamera2 comes from apt, so the venv sees the system site packages.
VENV_FLAGS := $(shell [ -e /usr/lib/python3/dist-packages/picamera2 ] && echo --system-site-packages)
SUDO := $(shell [ "$$(id -u)" = 0 ] && echo "" || (command -v sudo >/dev/null && echo "sudo -n"))
APT_PACKAGES := libzbar0 fonts-dejavu-core

.DEFAULT_GOAL := help
.PHONY: help setup demo test bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

$(SYSTEM_STAMP):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "cardtable needs Python 3.11 or newer (found $$($(PYTHON) --version))."; exit 1; }
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done; \
	  $(PYTHON) -c 'import ensurepip' 2>/dev/null || echo python3-venv); \
	if [ -z "$$missing" ] || ! command -v dpkg >/dev/null; then :; \
	elif command -v apt-get >/dev/null && { [ "$$(id -u)" = 0 ] || sudo -n true 2>/dev/null; }; then \
	  echo "installing system packages:" $$missing; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	else \
	  echo "note: $$missing not installed and no root or sudo here: run 'sudo apt-get install $$missing'"; \
	  echo "      (python3-venv: the virtual environment; libzbar0: the pyzbar decoder; fonts-dejavu-core: display fonts)"; \
	fi
	@$(PYTHON) -m venv $(VENV_FLAGS) $(VENV) || \
	  { echo "could not create a virtual environment: install python3-venv (sudo apt-get install python3-venv)"; exit 1; }
	@touch $@

$(STAMP): pyproject.toml $(SYSTEM_STAMP)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,hdmi]'
	@touch $@

setup: $(STAMP) ## create .venv and install cardtable with its test tools

demo: $(STAMP) ## play a whole game on simulated devices
	$(VENV)/bin/cardtable demo

test: $(STAMP) ## check the code (unused names, syntax) and run the test suite
	$(VENV)/bin/ruff check -q .
	GPIOZERO_PIN_FACTORY=mock SDL_VIDEODRIVER=dummy $(PY) -m pytest

bench: $(STAMP) ## run the benchmarks
	@for b in benchmarks/*_bench.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean: ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .hypothesis *.egg-info
