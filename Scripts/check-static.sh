#!/usr/bin/env bash
# Fails, saying why, unless each BINARY can start on a machine that has never seen Swift: the
# release build links the Swift runtime in (--static-swift-stdlib), so the binary must name no
# library of that runtime, find every library it needs in the system's own folders, and carry
# no RUNPATH or RPATH but $ORIGIN (its own folder, which SwiftPM always adds).
# `make build`, `make install` and Scripts/deb.sh run it; so does `make package-test`.
#
#   Scripts/check-static.sh BINARY...
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: check-static.sh BINARY..." >&2; exit 2; }

# The toolchain's runtime: the Swift standard library and Foundation with what it brings.
runtime='^(libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime)'

status=0
for binary in "$@"; do
  problems=()
  if ! dynamic=$(LC_ALL=C readelf -d "$binary" 2>&1); then
    echo "check-static.sh: $binary: not an ELF file readelf can read: $dynamic" >&2
    status=1
    continue
  fi
  declare -A named=()
  while read -r library; do
    named[$library]=1
    [[ $library =~ $runtime ]] && problems+=("needs $library, a library of the Swift runtime")
  done < <(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic")
  while read -r kind paths; do
    IFS=: read -ra entries <<<"$paths"
    for entry in "${entries[@]}"; do
      [ "$entry" = '$ORIGIN' ] || problems+=("has $kind $entry, a folder outside the package")
    done
  done < <(sed -n 's/.*(\(RUNPATH\|RPATH\)).*\[\(.*\)\]/\1 \2/p' <<<"$dynamic")
  # What the loader resolves, the libraries those libraries need included.
  while read -r library arrow path _; do
    [ "$arrow" = "=>" ] || continue
    if [ "$path" = not ]; then
      problems+=("needs $library, which this machine's loader does not find")
    elif [[ $path == */swift/* && -z ${named[$library]:-} ]]; then
      problems+=("loads $path from a Swift toolchain")
    fi
  done < <(LC_ALL=C ldd "$binary" 2>&1)

  if [ ${#problems[@]} -gt 0 ]; then
    for problem in "${problems[@]}"; do echo "check-static.sh: $binary $problem" >&2; done
    echo "check-static.sh: $binary is not the static release build" \
      "(swift build -c release --static-swift-stdlib): it may not start where Swift is not installed." >&2
    status=1
  else
    echo "check-static.sh: $binary needs no Swift runtime library and no RUNPATH but \$ORIGIN"
  fi
done
exit $status
