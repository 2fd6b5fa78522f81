# fabricctl: `make demo` and `make test` are the two commands a fresh clone needs.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

FABRICCTL = $(BUILD)/fabricctl

FUZZ_BUILD ?= build-fuzz

# `make install`: where to (DESTDIR, when set, is prepended to every path, for staging).
PREFIX     ?= /usr/local

.PHONY: all deps build build-asan test lint test-times demo demo-offline bench bench-online clean fuzz install package

all: build

deps:
	@./scripts/install-deps

# Ninja where it is installed (scripts/install-deps installs it), for a new build directory; one that
# exists keeps the generator it was made with.
generator = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(shell command -v ninja),-G Ninja))

build: deps
	cmake $(call generator,$(BUILD)) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFABRICCTL_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# The sanitizer build: Debug (-O0, _GLIBCXX_ASSERTIONS) with ASan and UBSan. ASAN_DEBUG_FLAGS: line
# tables are all the sanitizers' stack traces need, and compile faster than -g; `make build-asan
# ASAN_DEBUG_FLAGS=-g` for a debugger. ASAN_CXX: clang++ where it is installed (scripts/install-deps
# installs it), which compiles this build in a third of GCC's time (docs/testing.md); a new build
# directory takes it, one that exists keeps its compiler.
ASAN_DEBUG_FLAGS ?= -g1
ASAN_CXX ?= $(shell command -v clang++ 2>/dev/null)
compiler = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(2),-DCMAKE_CXX_COMPILER=$(2)))
build-asan: deps
	cmake $(call generator,$(ASAN_BUILD)) $(call compiler,$(ASAN_BUILD),$(ASAN_CXX)) -S . -B $(ASAN_BUILD) \
	  -DCMAKE_BUILD_TYPE=Debug -DFABRICCTL_SANITIZE=ON \
	  -DFABRICCTL_WERROR=ON -DCMAKE_CXX_FLAGS_DEBUG="$(ASAN_DEBUG_FLAGS)" $(CMAKE_FLAGS) >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# Every test once, on the sanitizer build (docs/testing.md): unit tests, fuzz replays, the binary's CLI
# tests and the lab. Style is `make lint`. TEST_JOBS: one test per core and one more, for the tests that
# wait on real timers and the lab's daemons (226 s against 250 s at one per core on two cores).
# SONIC_YANG_MEMO: the SONiC emulator's YANG verdicts, kept by digest (tests/lab/emulators/sonic_yang.py).
TEST_JOBS ?= $(shell echo $$(( $(JOBS) + 1 )))
test: build-asan
	cd $(ASAN_BUILD) && SONIC_YANG_MEMO=$(abspath $(ASAN_BUILD))/sonic-yang-memo ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(TEST_JOBS)

# Style: formatting (.clang-format) and clang-tidy (.clang-tidy), each with its self-test. clang-tidy
# reads a build directory's compile commands: LINT_BUILD is configured, not built, without precompiled
# headers (clang cannot read GCC's), so every file must include what it uses.
LINT_BUILD ?= build-lint
lint: deps
	cmake -S . -B $(LINT_BUILD) -DFABRICCTL_PCH=OFF -DFABRICCTL_UNITY=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON $(CMAKE_FLAGS) >/dev/null
	bash tests/tools/check-format --self-test
	bash tests/tools/check-format .
	python3 tests/tools/check-tidy --self-test
	python3 tests/tools/check-tidy $(LINT_BUILD) .

# The 15 slowest tests of the last `make test` (ctest's own cost data), slowest first.
test-times:
	@python3 scripts/test-times $(ASAN_BUILD)

# As root: the live story on the mixed lab, every switch platform (tests/lab/demo.sh: real namespaces, sshd,
# lldpd, NOS emulators).
# Otherwise, or after it: the main job on the bundled example fabrics: validate, render, summarize, and
# verify a saved lab snapshot.
demo: build
	@if [ "$$(id -u)" -eq 0 ]; then bash tests/lab/demo.sh $(FABRICCTL) || exit $$?; echo; \
	  else echo "(not root: the offline demo; as root, make demo also runs the live lab)"; fi
	@$(MAKE) --no-print-directory demo-offline

demo-offline: build
	@for inv in lab lab-mixed rail-optimized; do \
	  echo "== fabricctl validate -i inventory/$$inv"; \
	  $(FABRICCTL) validate -i inventory/$$inv || exit $$?; \
	  echo "== fabricctl render -i inventory/$$inv --out out/$$inv"; \
	  $(FABRICCTL) render -i inventory/$$inv --out out/$$inv || exit $$?; \
	done
	@echo
	@echo "Rendered configuration is under out/; e.g. out/lab/leaf1/config_db.json (SONiC),"
	@echo "out/lab/leaf2/session.cfg (EOS), out/lab/spine1/commands.nvue (NVUE), out/lab/host1/apply.sh (Linux),"
	@echo "out/lab-mixed/leaf3/config.cfg (NX-OS), out/lab-mixed/leaf4/config.set (Junos)."
	@echo
	@echo "== fabricctl verify -i inventory/lab --snapshots tests/snapshots/lab-classic -o table"
	@echo "   (a lab snapshot with one switch port missing PFC and one NIC at MTU 1500; exit 1 is expected)"
	@$(FABRICCTL) verify -i inventory/lab --snapshots tests/snapshots/lab-classic -o table; \
	  rc=$$?; [ $$rc -eq 1 ] || { echo "verify exited $$rc, expected 1"; exit 1; }

# Installs the binary, the shipped profiles and templates (PREFIX/share/fabricctl), the man page,
# bash completion and docs (docs/install.md), e.g. `make install PREFIX=$$HOME/.local` or
# `make install DESTDIR=/tmp/stage PREFIX=/usr`.
install: build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"

# The Debian package from the same install rules: $(BUILD)/fabricctl_<version>_<arch>.deb.
package: build
	cmake --build $(BUILD) --target package

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(LINT_BUILD) out

# libFuzzer targets (tests/fuzz/, cmake/fuzz.cmake) built with clang, ASan and UBSan; the whole
# project, unit tests included, is compiled by clang with warnings as errors on the way. Each target
# then fuzzes briefly from its seed corpus; fuzz longer with e.g.
# `build-fuzz/fuzz_inventory -max_len=1048576 inventory`.
fuzz: deps
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
	  -DFABRICCTL_FUZZ=ON -DFABRICCTL_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_targets fabricctl fabricctl_tests
	cd $(FUZZ_BUILD) && ctest -R '^fuzz\.' --output-on-failure

# Scale benchmark (docs/performance.md; not part of `make test`, which runs only its smoke size):
# validate, render, snapshot and verify with injected faults at SIZES (smoke, R2k, R100k or a number of pods).
SIZES ?= smoke R2k R100k
bench: build
	@command -v /usr/bin/time >/dev/null || apt-get install -y -qq time
	scripts/bench $(BUILD) $(SIZES)

# Online benchmark (docs/performance.md, "Online"; as root: a network namespace of its own): N emulated
# switches behind one real sshd, read by fabricctl (collect + verify), by pdsh fanning out the same show
# commands, and by an Ansible playbook. ONLINE_SIZES: switch counts; ONLINE_TOOLS: which of the three,
# and apply (a profile change applied to every switch) and faults (the same with 10% failing each way).
ONLINE_SIZES ?= 200
ONLINE_TOOLS ?= fabricctl,pdsh,ansible,apply,faults
bench-online: build
	@[ "$$(id -u)" -eq 0 ] || { echo "make bench-online: needs root (a network namespace of its own)" >&2; exit 1; }
	/usr/bin/python3 tests/bench/online.py $(BUILD) $(ONLINE_SIZES) --tools $(ONLINE_TOOLS)
