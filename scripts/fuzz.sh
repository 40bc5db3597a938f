#!/usr/bin/env bash
# Coverage-guided fuzzing of the engine with cargo-fuzz (libFuzzer), on stable Rust.
#
#   scripts/fuzz.sh [SECONDS]     fuzz every target in fuzz/ for about 2×SECONDS in all (default
#                                 30), split evenly between the targets, at least 2 s each
#
# (SECONDS was each target's time when there were two: document and expression. Records and
# resume, running graphs under small limits, HTTP reply decoding, share links and JSON Schemas
# were added since, and share the same total.) `./dev fuzz` runs this; `./dev test` does not
# build the fuzzers, but replays the seeds and regressions through the same checks
# (fuzz/checks/, shared with the native tests).
#
# The default sanitizer, none, needs nothing but stable Rust and runs 10-20 times faster than
# AddressSanitizer; the engine has no unsafe code for ASan to check. Panics, hangs (10 s per
# input) and running out of memory (2 GiB) are caught and their input saved; a stack overflow
# is caught, but kills the fuzzer before it saves the input. FUZZ_SANITIZER=address builds
# with ASan, which reports stack overflows with their input; it needs a nightly flag, which
# RUSTC_BOOTSTRAP=1 (set here) unlocks on stable.
#
# Seeds are read from fuzz/corpus/<target>/ and inputs that once crashed from
# fuzz/regressions/<target>/ (so a fixed bug stays fixed); new interesting inputs go to
# fuzz/target/fuzz-corpus/<target>/ and crashing ones to fuzz/artifacts/<target>/.
# Exits non-zero when any target crashed.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds=${1:-30}
sanitizer=${FUZZ_SANITIZER:-none}
cargo_fuzz_version=0.13.2
[[ $seconds =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2; }

log() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# cargo-fuzz 0.13 or newer; install the pinned release when missing or older.
have=$(cargo fuzz --version 2>/dev/null | awk '{print $2}' || true)
if [ -z "$have" ] || [ "$(printf '%s\n' 0.13.0 "$have" | sort -V | head -n1)" != 0.13.0 ]; then
  log "installing cargo-fuzz $cargo_fuzz_version (a few minutes, once)"
  cargo install cargo-fuzz --version "$cargo_fuzz_version" --locked --quiet
fi

if [ "$sanitizer" != none ]; then
  export RUSTC_BOOTSTRAP=1
  # Cargo caches a failed probe of rustc's flags from a run without RUSTC_BOOTSTRAP.
  rm -f target/.rustc_info.json
fi

log "building the fuzz targets (sanitizer: $sanitizer)"
cargo fuzz build -s "$sanitizer"

targets=$(cargo fuzz list)
count=$(echo "$targets" | wc -w)
per_target=$(( seconds * 2 / count ))
[ "$per_target" -ge 2 ] || per_target=2

failed=0
mkdir -p target/fuzz-logs
for target in $targets; do
  mkdir -p "target/fuzz-corpus/$target" "corpus/$target" "regressions/$target"
  out="target/fuzz-logs/$target.log"
  log "fuzzing $target for $per_target s (log: fuzz/$out)"
  started=$SECONDS
  status=ok
  # The first corpus directory receives new inputs; the seeds stay as committed.
  if ! cargo fuzz run -s "$sanitizer" "$target" \
    "target/fuzz-corpus/$target" "corpus/$target" "regressions/$target" -- \
    -max_total_time="$per_target" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$out" 2>&1; then
    status=CRASHED
    failed=1
  fi
  # Executions: libFuzzer's final statistic, else its last progress line (`#N ...`).
  execs=$(awk '/^stat::number_of_executed_units:/ { n = $NF } END { print n }' "$out")
  [ -n "$execs" ] || execs=$(awk '/^#[0-9]+/ { n = substr($1, 2) } END { print n }' "$out")
  printf '%-12s %s executions in %d s: %s\n' "$target" "${execs:-?}" $((SECONDS - started)) "$status"
  if [ "$status" != ok ]; then
    # The panic message (the line after `panicked at`), or libFuzzer's verdict, and the input.
    grep -aE -A1 "panicked at" "$out" | head -n 2 | sed 's/^/    /' || true
    grep -aE "ERROR: (libFuzzer|AddressSanitizer)|Fuzz target exited with signal" "$out" | sed 's/^/    /' || true
    artifact=$(sed -n 's/.*Test unit written to //p' "$out" | tail -n1)
    echo "    input: ${artifact:-none saved}"
    if [ -z "$artifact" ] && [ "$sanitizer" = none ]; then
      # Without ASan, libFuzzer's SIGSEGV handler has no stack of its own to run on, so a
      # stack overflow kills the fuzzer before it can save the input.
      echo "    probably a stack overflow: run again with FUZZ_SANITIZER=address to catch the input"
    fi
    echo "    reproduce: (cd fuzz && cargo fuzz run -s $sanitizer $target ${artifact:-<input>})"
  fi
done
exit "$failed"
