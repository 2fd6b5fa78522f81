# Fuzz targets for the parsers of untrusted input (tests/fuzz/<name>_fuzz.cpp), one per input kind.
#
# FABRICCTL_FUZZ=OFF (default, any compiler): each target is linked with a replay main() and a
# ctest `fuzz.<name>` runs it once over its seed corpus, so `make test` exercises every target
# under the normal and the ASan build in seconds.
# FABRICCTL_FUZZ=ON (clang; `make fuzz`): everything is instrumented for libFuzzer with ASan and
# UBSan, the targets are real fuzzers, and `fuzz.<name>` fuzzes for a fixed number of runs from
# the seeds, writing new inputs under the build directory, never into the source tree.
option(FABRICCTL_FUZZ "Build tests/fuzz targets with libFuzzer, ASan and UBSan (clang only)" OFF)

if(FABRICCTL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "FABRICCTL_FUZZ needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  # Coverage instrumentation for our code (the library the targets link), sanitizers everywhere.
  target_compile_options(fabricctl_warnings INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(fabricctl_warnings INTERFACE -fsanitize=address,undefined)
endif()

# Seeds: the repository's own files of each kind, plus inputs the fuzzers once failed on
# (tests/fuzz/regressions/<target>/).
set(FUZZ_SEEDS_profile   profiles tests/corpus/invalid tests/fuzz/regressions/profile)
set(FUZZ_SEEDS_inventory inventory tests/corpus/invalid)
set(FUZZ_SEEDS_validate  inventory)
set(FUZZ_SEEDS_template  templates)
set(FUZZ_SEEDS_snapshot  tests/snapshots)
# verify: any bytes are operations on the lab's snapshot set; the regressions name what once crashed.
set(FUZZ_SEEDS_verify    tests/fuzz/regressions/verify tests/snapshots/lab-classic)

add_custom_target(fuzz_targets)
foreach(name profile inventory validate template snapshot verify)
  set(target fuzz_${name})
  if(FABRICCTL_FUZZ)
    add_executable(${target} tests/fuzz/${name}_fuzz.cpp)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  else()
    add_executable(${target} tests/fuzz/${name}_fuzz.cpp tests/fuzz/replay_main.cpp)
  endif()
  target_link_libraries(${target} PRIVATE fabricctl_cli fabricctl_report fabricctl_verify fabricctl_render fabricctl_model
                                          fabricctl_platform fabricctl_state fabricctl_util fabricctl_warnings)
  target_include_directories(${target} PRIVATE tests/fuzz)
  target_compile_definitions(${target} PRIVATE FABRICCTL_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  add_dependencies(fuzz_targets ${target})

  set(seeds "")
  foreach(dir ${FUZZ_SEEDS_${name}})
    list(APPEND seeds ${CMAKE_SOURCE_DIR}/${dir})
  endforeach()
  if(FABRICCTL_FUZZ)
    # libFuzzer adds new inputs to its first corpus directory: one under the build tree.
    # -max_len: inventories and snapshots are larger than libFuzzer's 4 KiB default (and 64 KiB).
    set(scratch ${CMAKE_BINARY_DIR}/fuzz-corpus/${name})
    file(MAKE_DIRECTORY ${scratch})
    add_test(NAME fuzz.${name}
             COMMAND ${target} -runs=2000 -seed=1 -max_len=1048576 -timeout=10 -rss_limit_mb=2048 ${scratch} ${seeds})
  else()
    add_test(NAME fuzz.${name} COMMAND ${target} ${seeds})
  endif()
endforeach()
