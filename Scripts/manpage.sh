#!/usr/bin/env bash
# Completes the man page swift-argument-parser's generate-manual writes from the binary:
# its EXIT STATUS section ("exits 0 on success, and >0 if an error occurs") is replaced by the
# sections in SECTIONS (ENVIRONMENT, FILES, CONFIGURATION and the real EXIT STATUS), in place.
#   Scripts/manpage.sh PAGE SECTIONS
set -euo pipefail
page="${1:?usage: manpage.sh PAGE SECTIONS}"
sections="${2:?usage: manpage.sh PAGE SECTIONS}"
grep -qx '.Sh "EXIT STATUS"' "$page" || { echo "manpage.sh: $page has no EXIT STATUS section" >&2; exit 1; }
tmp="$page.tmp"
awk -v sections="$sections" '
  $0 == ".Sh \"EXIT STATUS\"" {
    while ((getline line < sections) > 0) if (line !~ /^\.\\"/) print line
    skipping = 1
    next
  }
  skipping && /^\.Sh / { skipping = 0 }
  !skipping { print }
' "$page" >"$tmp"
mv "$tmp" "$page"
