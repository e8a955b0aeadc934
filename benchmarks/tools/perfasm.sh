#!/usr/bin/env bash
# perfasm.sh BENCH_REGEX [JMH options...]: runs prmkit's JMH benchmarks with JMH's perfasm profiler, so
# the hottest C2 code is printed as assembly with its share of perf samples, e.g.
#   benchmarks/tools/perfasm.sh 'CqeParseBench' -f 1 -wi 3 -i 3
# PERFASM_OPTS adds perfasm options, e.g. PERFASM_OPTS='tooBigThreshold=4000' for a big method.
# Needs gcc, linux-perf and libhsdis0-fcml (apt-get install linux-perf libhsdis0-fcml), and the CLI
# built (./prmkit --version builds it). In a VM without hardware counters perf samples cpu-clock.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
[[ $# -ge 1 ]] || { echo "usage: $0 BENCH_REGEX [JMH options...]" >&2; exit 2; }
for need in gcc perf; do command -v "$need" >/dev/null || { echo "perfasm.sh: $need is not installed" >&2; exit 1; }; done
[[ -e /usr/lib/x86_64-linux-gnu/libhsdis.so.0.0.0 ]] || { echo "perfasm.sh: libhsdis0-fcml is not installed" >&2; exit 1; }
"$root/prmkit" --version >/dev/null
shim="$(mktemp -d)"
trap 'rm -rf "$shim"' EXIT
gcc -O2 -shared -fPIC -o "$shim/hsdis-amd64.so" "$root/benchmarks/tools/hsdis-shim.c" -ldl
java="${PRMKIT_JAVA_HOME:-${JAVA_HOME:-}}"
[[ -n "$java" && -x "$java/bin/java" ]] || java="$(ls -d /usr/lib/jvm/temurin-2[2-9]* /usr/lib/jvm/*-2[2-9]* 2>/dev/null | sort -V | tail -1)"
cp="$(ls "$root"/cli/target/lib/*.jar | tr '\n' ':')$root/cli/target/prmkit-cli.jar"
regex="$1"
shift
LD_LIBRARY_PATH="$shim${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$java/bin/java" --enable-native-access=ALL-UNNAMED -cp "$cp" \
  org.openjdk.jmh.Main "$regex" -prof "perfasm:events=cpu-clock${PERFASM_OPTS:+;$PERFASM_OPTS}" "$@"
