# Kassen: everything a fresh machine with python3 and make needs.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: play test lint bench clean

$(STAMP): pyproject.toml requirements.lock
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.lock
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -e .
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/kassen play

test: $(STAMP)
	$(PY) -m pytest -q -n 2 -p no:cacheprovider

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests
	$(VENV)/bin/mypy --strict src/kassen/engine

bench: $(STAMP)
	$(VENV)/bin/kassen bench

clean:
	rm -rf $(VENV) build src/*.egg-info
