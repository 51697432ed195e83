#!/usr/bin/env bash
# Builds the libFuzzer harnesses in Fuzz/ (address sanitizer + coverage) and runs each for a
# bounded time on its seed corpus.
#
#   scripts/fuzz.sh [SECONDS [HARNESS…]]   default 60 s for each harness; `make test` runs a 3-second
#                                          smoke pass of all. `scripts/fuzz.sh 60 FuzzFeeds` runs one.
#
# New inputs found go to .build/fuzz-corpus/<harness>/ (the seeds in Fuzz/Corpus stay as they are);
# a crash leaves its input in .build/fuzz-artifacts/ and fails the script. Turn every crash into a
# regression test before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_HARNESS=${1:-60}
HARNESSES=(FuzzForm FuzzCookies FuzzIntent FuzzMustache FuzzFeeds FuzzMarkdown FuzzMultipart FuzzSearch)
if [ $# -gt 1 ]; then
  for harness in "${@:2}"; do
    [[ " ${HARNESSES[*]} " == *" $harness "* ]] || { echo "no harness named $harness (${HARNESSES[*]})" >&2; exit 2; }
  done
  HARNESSES=("${@:2}")
fi
CLANG_RT=$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/clang
FUZZER_LIB=$(find "$CLANG_RT" -name 'libclang_rt.fuzzer_no_main-x86_64.a' | head -1)
[ -n "$FUZZER_LIB" ] || { echo "libFuzzer runtime not found in the Swift toolchain" >&2; exit 1; }

# SwiftPM renames each executable's main, so the harnesses link libFuzzer without its main and
# call LLVMFuzzerRunDriver themselves; the coverage flags are the ones -fsanitize=fuzzer implies.
mkdir -p .build
build_harnesses() {
  (cd Fuzz && swift build -c debug \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xswiftc -parse-as-library -Xswiftc -enable-testing \
    -Xlinker "$FUZZER_LIB" -Xlinker -lstdc++) >.build/fuzz-build.log 2>&1
}
# Never fuzz yesterday's binaries: a failed build stops here. A build plan left stale by moved
# source files ("missing inputs") is retried once from scratch.
if ! build_harnesses; then
  echo "fuzz harnesses did not build; retrying from a clean Fuzz/.build"
  rm -rf Fuzz/.build
  build_harnesses || { tail -30 .build/fuzz-build.log; echo "fuzzing: the harnesses do not build" >&2; exit 1; }
fi

mkdir -p .build/fuzz-artifacts
failed=0
for harness in "${HARNESSES[@]}"; do
  corpus=.build/fuzz-corpus/$harness
  mkdir -p "$corpus"
  if ASAN_OPTIONS=detect_leaks=0 Fuzz/.build/debug/"$harness" -max_total_time="$SECONDS_PER_HARNESS" \
      -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix=.build/fuzz-artifacts/"$harness"- "$corpus" Fuzz/Corpus/"$harness" \
      >.build/fuzz-"$harness".log 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' .build/fuzz-"$harness".log)
    echo "$harness: ${runs:-?} inputs in ${SECONDS_PER_HARNESS}s, no crash"
  else
    failed=$((failed + 1))
    echo "$harness FAILED: see .build/fuzz-$harness.log and .build/fuzz-artifacts/"
    tail -30 .build/fuzz-"$harness".log
  fi
done
echo "fuzzing: $(( ${#HARNESSES[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
