# Sealite: every entry point. System packages come from scripts/setup (idempotent,
# fast when everything is present), so each target starts from a fresh Debian 12 too.
#
#   make demo          run the demo inside a private keyring session
#   make test          test suite against the system SQLCipher 4.x
#   make test-legacy   same suite against SQLCipher 3.4.1 (SQLite 3.15.2) in a private prefix
#   make bench         benchmarks, release build (make bench ARGS='observation-latency')
#   make allocations-release  allocations and atomic reference operations per operation, release build, against their limits
#   make lint          swift format lint, scripts/check-readme, the doc-comment and layering checks (make format rewrites in place)
#   make docs          DocC archives of Sealite and SealiteKeyring in .build/docs
#   make doc-check     public symbols without a doc comment (there must be none)
#   make api-coverage  docs/GRDB-API-coverage.md: each public symbol of GRDB 7.8, and whether Sealite has it
#   make grdb-typecheck  how many of GRDB's own test files type-check against Sealite (needs a GRDB mirror)
#   make grdb-run-tests  runs those GRDB test files against Sealite, class by class
#   make sanitize      test suite under AddressSanitizer, then ThreadSanitizer (not part of make test)
#   make sanitize-ci   AddressSanitizer over the Core and Record suites (CI runs it)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.ONESHELL:
.DEFAULT_GOAL := build

SWIFT ?= swift
# Arguments for the demo: make demo ARGS='...'
ARGS ?=

# The legacy leg keeps its own scratch path: SwiftPM caches pkg-config results per
# scratch path, so sharing .build would mix the two SQLCipher builds.
LEGACY_PREFIX ?= $(CURDIR)/.build/legacy-sqlcipher
LEGACY_SCRATCH ?= .build/legacy

# What swift format checks; directories that do not exist yet are skipped.
FORMAT_PATHS := Package.swift Sources Tests Examples KeyTools Tools Benchmarks

.PHONY: setup build test test-legacy sanitize sanitize-ci demo bench allocations-release lint format docs doc-check api-coverage grdb-typecheck grdb-run-tests clean

setup:
	scripts/setup

build: setup
	$(SWIFT) build

# Shell lines (for a .ONESHELL recipe, after its first line) that export what the
# tests learn about the primary leg: SEALITE_LEG, SEALITE_EXPECT_SQLCIPHER and
# SEALITE_EXPECT_SQLITE (the system SQLCipher and the SQLite its header names), and
# SEALITE_SQLCIPHER_SHELL. $@ names the target in messages.
define PRIMARY_LEG_ENV
v=$$(dpkg-query -W -f='$${Version}' libsqlcipher-dev)
v=$${v#*:}; v=$${v%-*}; v=$${v%%[+~]*}
header="$$(pkg-config --variable=includedir sqlcipher)/sqlcipher/sqlite3.h"
sqlite=$$(sed -n 's/^#define SQLITE_VERSION[[:space:]]*"\([^"]*\)".*/\1/p' "$$header")
[ -n "$$v" ] && [ -n "$$sqlite" ] || { echo "$@: cannot tell the SQLCipher/SQLite versions" >&2; exit 1; }
shell=$$(command -v sqlcipher || true)
echo "$@: primary leg, SQLCipher $$v (SQLite $$sqlite), shell $${shell:-none}"
export SEALITE_LEG=primary SEALITE_CLOSE_CHECK=1 SEALITE_EXPECT_SQLCIPHER="$$v" SEALITE_EXPECT_SQLITE="$$sqlite" \
  SEALITE_SQLCIPHER_SHELL="$$shell"
endef

test: setup
	@:
	$(PRIMARY_LEG_ENV)
	echo "+ scripts/with-keyring $(SWIFT) test"
	scripts/with-keyring $(SWIFT) test

test-legacy: setup
	@# PKG_CONFIG_PATH, LD_LIBRARY_PATH, SEALITE_EXPECT_* of the private prefix, as LEGACY_*.
	legacy_env=$$(scripts/legacy-prefix --print-env "$(LEGACY_PREFIX)")
	eval "$$(sed 's/^/LEGACY_/' <<<"$$legacy_env")"
	echo "test-legacy: SQLCipher $$LEGACY_SEALITE_EXPECT_SQLCIPHER (SQLite $$LEGACY_SEALITE_EXPECT_SQLITE) from $(LEGACY_PREFIX)"
	export PKG_CONFIG_PATH="$$LEGACY_PKG_CONFIG_PATH" SEALITE_CLOSE_CHECK=1
	echo "+ PKG_CONFIG_PATH=$$PKG_CONFIG_PATH $(SWIFT) build --build-tests --scratch-path $(LEGACY_SCRATCH)"
	$(SWIFT) build --build-tests --scratch-path "$(LEGACY_SCRATCH)"
	# The test binary must load the private libsqlcipher.so.0, never the system's .so.1.
	bin=$$($(SWIFT) build --scratch-path "$(LEGACY_SCRATCH)" --show-bin-path)
	runners=("$$bin"/*.xctest)
	[ -e "$${runners[0]}" ] || { echo "test-legacy: no test binary in $$bin" >&2; exit 1; }
	for runner in "$${runners[@]}"; do
	  links=$$(LD_LIBRARY_PATH="$$LEGACY_LD_LIBRARY_PATH" ldd "$$runner" | grep libsqlcipher || true)
	  echo "test-legacy: $${runner##*/} links $$(echo $$links)"
	  if [[ "$$links" == *libsqlcipher.so.1* ]] ||
	     [[ "$$links" != *"libsqlcipher.so.0 => $$LEGACY_LD_LIBRARY_PATH/libsqlcipher.so.0 "* ]]; then
	    echo "test-legacy: $${runner##*/} does not link the legacy libsqlcipher.so.0 from $$LEGACY_LD_LIBRARY_PATH" >&2
	    exit 1
	  fi
	done
	export SEALITE_LEG=legacy SEALITE_EXPECT_SQLCIPHER="$$LEGACY_SEALITE_EXPECT_SQLCIPHER" \
	  SEALITE_EXPECT_SQLITE="$$LEGACY_SEALITE_EXPECT_SQLITE" \
	  SEALITE_SQLCIPHER_SHELL="$$LEGACY_SEALITE_SQLCIPHER_SHELL" \
	  LD_LIBRARY_PATH="$$LEGACY_LD_LIBRARY_PATH$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}"
	echo "+ LD_LIBRARY_PATH=$$LD_LIBRARY_PATH scripts/with-keyring $(SWIFT) test --skip-build --scratch-path $(LEGACY_SCRATCH)"
	scripts/with-keyring $(SWIFT) test --skip-build --scratch-path "$(LEGACY_SCRATCH)"

# The primary leg under sanitizers, one after the other: make sanitize SANITIZER=thread
# runs one. Each sanitizer builds in a scratch path of its own (instrumented objects
# can not mix); dbkey and sealite-watch, which tests spawn, are instrumented too.
# Slow (ThreadSanitizer: a build and a run of 15 minutes and more on 2 cores), so
# not part of make test. SANITIZE_ARGS adds arguments to swift test (a --filter).
SANITIZER ?= address thread
SANITIZE_SCRATCH ?= .build/sanitize
SANITIZE_ARGS ?=
# Tests that can not run under a sanitizer, as a --skip regular expression:
# - ValueObservationTests/debounce measures how a 50 ms debounce thins out a burst of
#   2,000 commits; with a sanitizer's slowdown the commits are no longer a burst.
# - CursorTests/constantMemory measures the memory a cursor holds against fetchAll's;
#   AddressSanitizer keeps freed memory in quarantine and ThreadSanitizer shadows it.
SANITIZE_SKIP ?= ValueObservationTests/debounce|CursorTests/constantMemory
# Tests that run on their own, after the others. In a sanitized parallel run the
# synchronous tests (dbkey, keyring) hold both threads of the cooperative pool for
# minutes, and an async test may resume minutes after it started:
# - FileChangeMonitorTests count handler calls over windows of their monitors' 60 s
#   idle interval, and the idle call counts too;
# - the observation suites wait (60 s) for values that tasks of their own produce.
SANITIZE_ALONE ?= FileChangeMonitorTests|OtherProcessesObservationTests|ValueObservationTests|AsyncValueObservationTests
# Reports are written to files under the scratch path (log_path), one per process,
# so that a report from a program a test spawned (whose standard error the test
# reads) is not lost either: any report file fails the run, after printing it.
SANITIZE_ASAN_OPTIONS ?= detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1
SANITIZE_TSAN_OPTIONS ?= second_deadlock_stack=1

# The sanitizer pass of CI: AddressSanitizer over the suites of the test folders
# SANITIZE_CI_FOLDERS (every test type named …Tests declared there), within CI's time.
SANITIZE_CI_FOLDERS ?= Core Record

# LeakSanitizer reports that are not Sealite's, each with its reason. Written to
# the scratch path; LSAN_OPTIONS names it for the tests and the programs they spawn.
define LSAN_SUPPRESSIONS
# XCTest's own objects, at the end of swift test's (empty) XCTest pass.
leak:libXCTest.so
# swift-foundation (Swift 6.3) leaks a 4 KiB buffer each time it reads an empty
# file (FileManager.contents(atPath:), Data(contentsOf:)), which tests do.
leak:readBytesFromFile
# Objects that lazily initialized globals keep for the life of the process: Swift
# stores some of their references with enum tag bits LeakSanitizer does not see.
leak:swift::threading_impl::once_slow
# Swift's weak-reference side tables (Foundation.Process keeps weak references):
# an object refers to its side table through encoded reference-count bits.
leak:formWeakReference
# Values that the top-level code of an async main.swift (sealite-quickstart) keeps
# in top-level variables until the program exits.
leak:async_MainTY1_
endef
export LSAN_SUPPRESSIONS

# ThreadSanitizer reports that are false positives. Synchronization.Mutex hands a
# contended lock over through a futex in libswiftSynchronization, which is not
# instrumented: ThreadSanitizer then sees two critical sections of the same Mutex
# without an order between them (a 4-thread counter under Mutex.withLock alone gets
# a "Swift access race" report, and counts exactly). Sealite and its tests lock with
# `Locked` (a pthread mutex, which ThreadSanitizer intercepts), so this only serves
# the programs that use Mutex (dbkey, sealite-watch, sealite-stress and
# sealite-quickstart). The pattern matches the closures Mutex.withLock runs,
# `(inout sending State) throws(E) -> sending T`, when they are the access reported:
# an access outside a lock that races with one inside it is still reported when it
# comes second.
define TSAN_SUPPRESSIONS
race_top:zYu*YTXEfU
endef
export TSAN_SUPPRESSIONS

sanitize: setup
	@:
	$(PRIMARY_LEG_ENV)
	for sanitizer in $(SANITIZER); do
	  case "$$sanitizer" in
	    address|thread) ;;
	    *) echo "sanitize: SANITIZER takes address and/or thread, not $$sanitizer" >&2; exit 2 ;;
	  esac
	done
	asan_options="$(SANITIZE_ASAN_OPTIONS)$${ASAN_OPTIONS:+:$$ASAN_OPTIONS}"
	tsan_options="$(SANITIZE_TSAN_OPTIONS)$${TSAN_OPTIONS:+:$$TSAN_OPTIONS}"
	lsan_options="$${LSAN_OPTIONS:-}"
	for sanitizer in $(SANITIZER); do
	  scratch="$(SANITIZE_SCRATCH)-$$sanitizer"
	  echo "+ $(SWIFT) build --build-tests --sanitize=$$sanitizer --scratch-path $$scratch"
	  $(SWIFT) build --build-tests --sanitize="$$sanitizer" --scratch-path "$$scratch"
	  printf '%s\n' "$$LSAN_SUPPRESSIONS" >"$$scratch/lsan-suppressions.txt"
	  printf '%s\n' "$$TSAN_SUPPRESSIONS" >"$$scratch/tsan-suppressions.txt"
	  export LSAN_OPTIONS="suppressions=$$PWD/$$scratch/lsan-suppressions.txt$${lsan_options:+:$$lsan_options}"
	  reports="$$PWD/$$scratch/reports"
	  rm -rf "$$reports" && mkdir -p "$$reports"
	  export ASAN_OPTIONS="log_path=$$reports/asan:$$asan_options"
	  export TSAN_OPTIONS="log_path=$$reports/tsan:suppressions=$$PWD/$$scratch/tsan-suppressions.txt:$$tsan_options"
	  args=(--skip-build --sanitize="$$sanitizer" --scratch-path "$$scratch")
	  skip="$(SANITIZE_SKIP)"
	  alone="$(SANITIZE_ALONE)"
	  first="$$skip"; [ -z "$$alone" ] || first="$${first:+$$first|}$$alone"
	  extra=(); [ -z "$$first" ] || extra=(--skip "$$first")
	  echo "+ scripts/with-keyring $(SWIFT) test $${args[*]} $${extra[*]} $(SANITIZE_ARGS)"
	  scripts/with-keyring $(SWIFT) test "$${args[@]}" "$${extra[@]}" $(SANITIZE_ARGS) || failed=1
	  # The tests that run alone, unless SANITIZE_ARGS chose the tests.
	  if [ -n "$$alone" ] && [ -z "$(SANITIZE_ARGS)" ]; then
	    extra=(--filter "$$alone"); [ -z "$$skip" ] || extra+=(--skip "$$skip")
	    echo "+ scripts/with-keyring $(SWIFT) test $${args[*]} $${extra[*]}"
	    scripts/with-keyring $(SWIFT) test "$${args[@]}" "$${extra[@]}" || failed=1
	  fi
	  # A file with only the statistics of the suppressions used is no report.
	  found=0
	  for report in "$$reports"/*; do
	    grep -qE '^(==[0-9]+==)?(ERROR|WARNING): ' "$$report" 2>/dev/null || continue
	    echo "sanitize: $$sanitizer report in $$report:" >&2; cat "$$report" >&2
	    found=$$((found + 1)); failed=1
	  done
	  echo "sanitize: $$sanitizer: $$found reports"
	done
	exit "$${failed:-0}"

sanitize-ci: setup
	@suites=$$(for folder in $(SANITIZE_CI_FOLDERS); do
	  grep -hoE '^(struct|final class|class|enum) [A-Za-z0-9_]+Tests\b' Tests/SealiteTests/$$folder/*.swift
	done | awk '{print $$NF}' | sort -u | paste -sd'|')
	[ -n "$$suites" ] || { echo "sanitize-ci: no test suites in $(SANITIZE_CI_FOLDERS)" >&2; exit 1; }
	echo "sanitize-ci: AddressSanitizer over $$(tr '|' ' ' <<<"$$suites")"
	$(MAKE) sanitize SANITIZER=address SANITIZE_ARGS="--filter 'SealiteTests\.($$suites)\b'"

demo: setup
	scripts/with-keyring $(SWIFT) run -c debug sealite-demo $(ARGS)

# Benchmarks in a release build: make bench ARGS='observation-latency'
bench: setup
	$(SWIFT) build -c release --product sealite-watch
	$(SWIFT) build -c release --product sealite-bench
	"$$($(SWIFT) build -c release --show-bin-path)/sealite-bench" $(ARGS)

# The counts of sealite-allocations in a release build, the code users run, against
# Tools/release-allocation-limits (AllocationCountTests checks the debug build).
allocations-release: setup
	$(SWIFT) build -c release --product sealite-allocations
	scripts/check-release-allocations "$$($(SWIFT) build -c release --show-bin-path)/sealite-allocations"

# swift format, then the documentation's checks: every swift block of README.md and
# the DocC articles quotes Examples/ (scripts/check-readme), every public symbol has a
# doc comment (doc-check, which builds the two library modules in debug), and no layer
# of Sealite uses what a higher one declares (scripts/check-layers, docs/ARCHITECTURE.md).
lint: doc-check
	@paths=(); for p in $(FORMAT_PATHS); do [ ! -e "$$p" ] || paths+=("$$p"); done
	echo "+ $(SWIFT) format lint --strict --parallel --recursive --configuration .swift-format $${paths[*]}"
	$(SWIFT) format lint --strict --parallel --recursive --configuration .swift-format "$${paths[@]}"
	echo "+ scripts/check-readme"
	scripts/check-readme
	echo "+ scripts/check-layers"
	scripts/check-layers

# Public symbols of Sealite and SealiteKeyring without a doc comment, from their
# symbol graphs (scripts/symbol-graphs, which reuses the debug build).
doc-check: setup
	SWIFT="$(SWIFT)" scripts/check-doc-comments

# DocC archives, from the symbol graphs and the catalogs Sources/*/*.docc, with the
# toolchain's docc (no plugin, no network). Any warning (an unresolved link, an
# undocumented parameter of a documented function) fails.
DOCS_DIR ?= .build/docs
docs: setup
	@SWIFT="$(SWIFT)" scripts/symbol-graphs .build/symbol-graphs
	docc="$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")")/docc"
	mkdir -p "$(DOCS_DIR)"
	for module in Sealite SealiteKeyring; do
	  echo "+ docc convert Sources/$$module/$$module.docc -> $(DOCS_DIR)/$$module.doccarchive"
	  "$$docc" convert "Sources/$$module/$$module.docc" \
	    --additional-symbol-graph-dir ".build/symbol-graphs/$$module" \
	    --fallback-display-name "$$module" --fallback-bundle-identifier "org.sealite.$$module" \
	    --output-path "$(DOCS_DIR)/$$module.doccarchive" --transform-for-static-hosting \
	    --warnings-as-errors
	done
	echo "docs: $(DOCS_DIR)/Sealite.doccarchive, $(DOCS_DIR)/SealiteKeyring.doccarchive"

# GRDB's public declarations against Sealite's symbol graph (scripts/symbol-graphs, which
# reuses the debug build), written to docs/GRDB-API-coverage.md by scripts/api-coverage.
# GRDB_SOURCE: GRDB 7.8's sources, a bare git directory (its HEAD) or a checkout.
GRDB_SOURCE ?= /work/.mirror/groue+GRDB.swift/repo
api-coverage: setup
	@SWIFT="$(SWIFT)" scripts/symbol-graphs .build/symbol-graphs
	scripts/api-coverage --grdb "$(GRDB_SOURCE)"

format:
	@paths=(); for p in $(FORMAT_PATHS); do [ ! -e "$$p" ] || paths+=("$$p"); done
	echo "+ $(SWIFT) format format --in-place --parallel --recursive --configuration .swift-format $${paths[*]}"
	$(SWIFT) format format --in-place --parallel --recursive --configuration .swift-format "$${paths[@]}"

clean:
	rm -rf .build .swiftpm

# GRDB's test files, type-checked one by one against the debug build
# (scripts/grdb-typecheck/run, on the GRDB clone GRDB_SOURCE). Not part of make test.
grdb-typecheck: setup
	$(SWIFT) build
	scripts/grdb-typecheck/run "$(GRDB_SOURCE)" --errors

# GRDB's test files that type-check, run against Sealite class by class
# (scripts/grdb-typecheck/run-tests). Not part of make test.
grdb-run-tests: setup
	scripts/grdb-typecheck/run-tests "$(GRDB_SOURCE)"
