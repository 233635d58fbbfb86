# Sourced by the scripts that count something for each variant of the benchmark's in-process
# scenarios (bench-instructions, bench-wakes): builds the benchmark and lists the variants.

# Builds layered-bench in release and sets `bench` to its path.
build_bench() {
  # The flag makes SwiftPM see source files added to Layered since the last build (see README).
  swift build -c release --package-path Benchmarks --disable-build-manifest-caching --product layered-bench > /dev/null
  bench=Benchmarks/.build/release/layered-bench
}

# Prints `scenario`'s tables and variants, one a line: `table<TAB>operations per round<TAB>title`
# and `variant<TAB>operations per round<TAB>name`; fails, naming the script `tool`, if the
# scenario has no variants.
list_variants() {
  local tool=$1 scenario=$2 listing
  listing=$(LAYERED_BENCH_LIST=1 "$bench" "$scenario" | grep -E '^(table|variant)	' || true)
  if ! grep -q '^variant' <<< "$listing"; then
    echo "$tool: $scenario has no variants to count" >&2
    return 1
  fi
  printf '%s\n' "$listing"
}
