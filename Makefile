# cardtable: two commands on a fresh Debian or Raspberry Pi OS machine, `make demo` and `make test`.
# Each sets up .venv itself (idempotent; fast once done) and needs only Python 3.11+ and make.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SYSTEM_STAMP := $(VENV)/.system-libs
TEST_SYSTEM_STAMP := $(VENV)/.system-test-tools
# picamera2 and lgpio come from apt on a Raspberry Pi, so there the venv sees the system site packages,
# and keeps the system's numpy: apt's picamera2 is built against it ("numpy.dtype size changed" otherwise).
SYSTEM_SITE := $(shell ls -d /usr/lib/python3/dist-packages/picamera2 /usr/lib/python3/dist-packages/lgpio* 2>/dev/null | head -1)
VENV_FLAGS := $(if $(SYSTEM_SITE),--system-site-packages)
BIN ?= $(HOME)/.local/bin
CONFIG ?= $(HOME)/table.toml

.DEFAULT_GOAL := help
.PHONY: help setup demo test test-fast bench install install-service clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-15s %s\n", $$1, $$2}'

$(SYSTEM_STAMP):
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
	  { echo "cardtable needs Python 3.11 or newer (found $$($(PYTHON) --version))."; exit 1; }
	@PYTHON=$(PYTHON) sh deploy/install_system_packages.sh runtime
	@$(PYTHON) -m venv $(VENV_FLAGS) $(VENV) || \
	  { echo "could not create a virtual environment: install python3-venv (sudo apt-get install python3-venv)"; exit 1; }
	@touch $@

$(TEST_SYSTEM_STAMP): $(SYSTEM_STAMP)
	@PYTHON=$(PYTHON) sh deploy/install_system_packages.sh test
	@touch $@

$(STAMP): pyproject.toml $(SYSTEM_STAMP)
	@: > $(VENV)/constraints.txt
	@[ -z "$(VENV_FLAGS)" ] || $(PYTHON) -c 'import numpy; print("numpy==" + numpy.__version__)' \
	  > $(VENV)/constraints.txt 2>/dev/null || :
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c $(VENV)/constraints.txt -e '.[test,hdmi]'
	@touch $@

setup: $(STAMP) ## create .venv and install cardtable with its test tools

demo: $(STAMP) ## play a whole game on simulated devices
	$(VENV)/bin/cardtable demo

test: $(STAMP) $(TEST_SYSTEM_STAMP) ## check the code (unused names, syntax) and run the test suite
	$(VENV)/bin/ruff check -q .
	GPIOZERO_PIN_FACTORY=mock SDL_VIDEODRIVER=dummy $(PY) -m pytest -n auto --dist worksteal --durations=15

test-fast: $(STAMP) $(TEST_SYSTEM_STAMP) ## the same, without the tests marked slow (under a minute)
	$(VENV)/bin/ruff check -q .
	GPIOZERO_PIN_FACTORY=mock SDL_VIDEODRIVER=dummy $(PY) -m pytest -n auto --dist worksteal -m "not slow"

bench: $(STAMP) ## run the benchmarks
	@for b in benchmarks/*_bench.py; do echo "== $$b"; $(PY) $$b || exit 1; done

install: $(STAMP) ## put a 'cardtable' command in ~/.local/bin that runs this checkout
	@mkdir -p $(BIN)
	@printf '%s\n' '#!/bin/sh' "# cardtable launcher written by 'make install' in $(CURDIR)" \
	  '# gpiozero cannot guess the GPIO chip of a Raspberry Pi 5: name it' \
	  'if [ -z "$${GPIOZERO_PIN_FACTORY:-}" ] && grep -qs "Raspberry Pi 5" /proc/device-tree/model; then' \
	  '    export GPIOZERO_PIN_FACTORY=lgpio' 'fi' 'exec "$(CURDIR)/$(VENV)/bin/cardtable" "$$@"' > $(BIN)/cardtable
	@chmod 755 $(BIN)/cardtable
	@case ":$$PATH:" in *":$(BIN):"*) echo "installed $(BIN)/cardtable: try 'cardtable games'";; \
	  *) echo "installed $(BIN)/cardtable; $(BIN) is not on your PATH yet: log in again (Debian's ~/.profile adds it)"; \
	     echo "or type: export PATH=\"$(BIN):\$$PATH\"";; esac

install-service: install ## start the table at boot with CONFIG (default ~/table.toml), via sudo
	$(VENV)/bin/cardtable install-service --config $(CONFIG)

clean: ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .hypothesis *.egg-info
