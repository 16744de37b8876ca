# floe's front door. Every target installs what is missing first (dev/setup),
# so a fresh Debian 12 machine needs nothing but `make test` or `make demo`.

SHELL := /bin/bash
BUILD_DIR ?= build
JOBS ?= $(shell nproc)
RELEASE := $(BUILD_DIR)/release
ASAN := $(BUILD_DIR)/asan
FUZZ := $(BUILD_DIR)/fuzz
FUZZ_SECONDS ?= 20
# The libFuzzer build's optimisation: -O1 for fuzzing sessions; CI's
# 5-second smoke runs build at -O0 -g1 in their own folder, which compiles in
# about half the time (docs/decisions/0077-ci-fuzz-build-at-o0.md).
FUZZ_FLAGS ?= -O1 -g
CTEST_FLAGS ?= --output-on-failure --timeout 600

export ASAN_OPTIONS ?= detect_leaks=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1

.PHONY: all setup build build-asan demo test bench fuzz format clean

all: build

setup:
	@dev/setup
	@dev/install-test-tools

# The release build is the floe binary and the benchmarks; every test runs in
# the sanitizer build, so nothing is compiled twice (docs/decisions/0020).
$(RELEASE)/build.ninja:
	cmake -S . -B $(RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLOE_BUILD_TESTS=OFF

$(ASAN)/build.ninja:
	cmake -S . -B $(ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOE_SANITIZE=ON \
	  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1"

$(FUZZ)/build.ninja:
	cmake -S . -B $(FUZZ) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFLOE_BUILD_FUZZ=ON -DFLOE_BUILD_TESTS=OFF \
	  -DFLOE_BUILD_BENCH=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS_DEBUG="$(FUZZ_FLAGS)"

build: setup $(RELEASE)/build.ninja
	cmake --build $(RELEASE) -j$(JOBS)

build-asan: setup $(ASAN)/build.ninja
	cmake --build $(ASAN) -j$(JOBS)

# The main job on the embedded default (./warehouse with a SQLite catalog),
# then the orders query's bytes and time against DuckDB 1.5.6 reading the same
# data files (installed by dev/install-test-tools), measured live. Fails when
# floe reads more than half DuckDB's bytes (docs/decisions/0053).
demo: build
	$(RELEASE)/floe demo
	@echo; echo "orders query against DuckDB 1.5.6 on the same data files (bench/orders-vs-duckdb.sh):"
	@BENCH_RUNS=3 BENCH_WAREHOUSE=warehouse bench/orders-vs-duckdb.sh $(RELEASE)

# Every test under ASan/UBSan (unit, conformance, cross-engine, real servers,
# and each fuzz target's bounded replay), then the benchmarks' short form
# against DuckDB, which fails when floe and DuckDB disagree on a result. One
# build serves all of it: CI's 2 cores compile the library once
# (docs/decisions/0020). `make demo` and `make bench` use the release build.
test: build-asan
	ctest --test-dir $(ASAN) -j$(JOBS) $(CTEST_FLAGS)
	bench/smoke.sh $(ASAN)

bench: build
	bench/run.sh $(RELEASE)

fuzz: setup $(FUZZ)/build.ninja
	cmake --build $(FUZZ) -j$(JOBS)
	fuzz/run.sh $(FUZZ) $(FUZZ_SECONDS)

format: setup
	git ls-files '*.h' '*.cc' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)
