# Kassen: everything a fresh machine with python3 and make needs.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: play test lint bench clean chromium postgresql

# setup.py compiles the engine's hot modules (mypyc) when a C compiler works, so an edit of
# one of them rebuilds; KASSEN_PURE_PYTHON=1 installs (and runs) pure Python. setup.py holds
# the one list of those modules and prints it here.
COMPILED := $(shell python3 setup.py --list-compiled)

$(STAMP): pyproject.toml requirements.lock setup.py $(COMPILED)
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

play: $(STAMP)
	PYTHONMALLOC=malloc $(VENV)/bin/kassen serve --new-game --open

test: $(STAMP) chromium postgresql
	$(PY) -m pytest -q -n 3 -p no:cacheprovider --durations=20 --dist loadfile --no-loadscope-reorder

# the browser tests drive Debian's chromium (never a browser downloaded by Playwright)
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing chromium for the browser tests (apt-get)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null; \
	  else \
	    echo "The browser tests need chromium. Install it, then run make test again:"; \
	    echo "    sudo apt-get install -y chromium"; \
	    exit 1; \
	  fi; }

# the storage, API and leak tests also run on a PostgreSQL server the tests start themselves
# (initdb + pg_ctl in a temporary directory): Debian's server programs, installed as root
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing PostgreSQL for the storage tests (apt-get)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >/dev/null; \
	  else \
	    echo "PostgreSQL is not installed: its tests will be skipped. To run them:"; \
	    echo "    sudo apt-get install -y postgresql"; \
	  fi; }

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy --strict src/kassen

bench: $(STAMP)
	$(VENV)/bin/kassen bench

clean:
	rm -rf $(VENV) build src/*.egg-info src/kassen__mypyc.* src/kassen/*/*.so src/kassen/*/*/*.so
