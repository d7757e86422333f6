# txngate: two commands from a fresh machine.
#   make serve   set up .venv and run the gateway on the embedded default
#   make test    set up .venv and run the whole test suite (starts its own
#                PostgreSQL and S3 servers)
#   make bench   run every benchmark under bench/
#   make fuzz    random differential queries against PostgreSQL (SEED=, N=)
#   make regress PostgreSQL's regression scripts on txngate and PostgreSQL

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: serve test bench fuzz regress system-deps clean

$(STAMP): pyproject.toml
	@$(MAKE) --no-print-directory system-deps
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $@

# Programs the tests need that PyPI cannot give: PostgreSQL's server (initdb,
# pg_ctl), psql and pgbench, and a Java runtime for Spark. Installed with
# apt-get only when missing (and only when we may: root with apt-get).
system-deps:
	@missing=""; \
	command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql-15"; \
	command -v psql >/dev/null 2>&1 || missing="$$missing postgresql-client-15"; \
	command -v java >/dev/null 2>&1 || missing="$$missing openjdk-17-jre-headless"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else \
	    echo "missing system packages:$$missing (install them with your package manager)"; exit 1; \
	  fi; \
	fi

serve: $(STAMP)
	$(VENV)/bin/txngate serve

test: $(STAMP)
	$(PY) -m pytest

# random differential queries against PostgreSQL: make fuzz SEED=7 N=5000
SEED ?= 1
N    ?= 1000
fuzz: $(STAMP)
	$(PY) -m tests.planner.fuzz --seed $(SEED) -n $(N)

# PostgreSQL's regression scripts, statement by statement, against PostgreSQL:
# make regress [FILES="int4 join"] [DETAILS=/tmp/regress.txt]
regress: $(STAMP)
	$(PY) -m tests.regress $(FILES) $(if $(DETAILS),--details $(DETAILS))

bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .hypothesis
