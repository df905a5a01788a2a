#!/usr/bin/env bash
# make package-test: the Debian package as a user gets it, tested the way Debian tests packages.
#
#   Scripts/package-test.sh TESTSERVER
#
# 1. `make build`, `make deb`, `make build`, `make deb` in this folder, each timed: both packages
#    must hold the static binary (Scripts/check-static.sh), pass lintian with no error, and hold
#    the same files (their md5sums).
# 2. A Debian 12 (bookworm) base tarball, minbase plus man-db, made by mmdebstrap from the Debian
#    archive apt uses on this machine (PACKAGE_TEST_MIRROR, a mirror's URL, where apt has none).
# 3. piuparts on the package from that tarball: install and purge, and an upgrade from a previous
#    version (this package's files under a lower version, from a local repository) then purge,
#    with Debian's own piuparts scripts (/etc/piuparts/scripts) and
#    Scripts/piuparts/post_install_podcast_runs.in, which checks that the chroot has no Swift and
#    that `podcast --version`, `podcast episodes` of a local feed, `podcast download` from
#    TESTSERVER (on 127.0.0.1, outside the chroot: the chroot shares this machine's network)
#    and `man podcast` work there.
#
# Logs stay in .build-package-test/. Needs root (sudo otherwise) for mmdebstrap and piuparts.
set -euo pipefail
testserver=$(readlink -f "${1:?usage: package-test.sh TESTSERVER}")
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
make=${MAKE:-make}
sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
logs=$root/.build-package-test
rm -rf "$logs"
mkdir -p "$logs"
work=$(mktemp -d "${TMPDIR:-/tmp}/podcast-package-test.XXXXXX")
server=""
cleanup() {
  [ -z "$server" ] || kill "$server" 2>/dev/null || true
  $sudo rm -rf "$work"
}
trap cleanup EXIT

summary=()
note() {
  echo "package-test: $*"
  summary+=("$*")
}
# Runs a command, noting how long it took.
timed() {
  local label=$1 start tenths
  shift
  start=$(date +%s%N)
  "$@" || return
  tenths=$((($(date +%s%N) - start) / 100000000))
  note "$label: $((tenths / 10)).$((tenths % 10)) s"
}

# 1. Two rounds of make build and make deb in this folder.
arch=$(dpkg --print-architecture)
for round in 1 2; do
  timed "make build (round $round)" $make build
  timed "make deb (round $round)" $make deb
  version=$(.build/release/podcast --version)
  deb=$work/round$round.deb
  cp "podcast_${version}_${arch}.deb" "$deb"
  unpacked=$work/round$round
  dpkg-deb -x "$deb" "$unpacked"
  bash Scripts/check-static.sh "$unpacked/usr/bin/podcast"
  LC_ALL=C readelf -d "$unpacked/usr/bin/podcast" | grep -E '\((NEEDED|RUNPATH|RPATH)\)' \
    | tee "$logs/readelf-round$round.txt"
  lintian --fail-on error "$deb" 2>&1 | tee "$logs/lintian-round$round.txt"
  note "round $round: podcast_${version}_${arch}.deb, $(stat -c %s "$deb") bytes," \
    "$(grep -c '(NEEDED)' "$logs/readelf-round$round.txt") NEEDED, none of the Swift runtime;" \
    "lintian: $(grep -c '^E:' "$logs/lintian-round$round.txt" || true) errors," \
    "$(grep -c '^W:' "$logs/lintian-round$round.txt" || true) warnings"
done
if ! cmp -s <(dpkg-deb -I "$work/round1.deb" md5sums) <(dpkg-deb -I "$work/round2.deb" md5sums); then
  echo "package-test: the two rounds packaged different files:" >&2
  diff <(dpkg-deb -I "$work/round1.deb" md5sums) <(dpkg-deb -I "$work/round2.deb" md5sums) >&2
  exit 1
fi
note "both rounds packaged the same files"
deb=$work/round2.deb

# 2. The Debian 12 base, from the archive apt here uses.
suite_uri() {
  apt-get indextargets --format '$(RELEASE) $(REPO_URI)' 'Identifier: Packages' 2>/dev/null \
    | awk -v suite="$1" '$1 == suite { print $2; exit }'
}
# apt lists what it has fetched: on a machine whose lists were never fetched, fetch them.
[ -n "$(suite_uri bookworm)" ] || $sudo apt-get update -qq || true
mirror=${PACKAGE_TEST_MIRROR:-$(suite_uri bookworm)}
if [ -z "$mirror" ]; then
  echo "package-test: apt on this machine uses no Debian 12 (bookworm) archive;" \
    "set PACKAGE_TEST_MIRROR to a Debian mirror's URL" >&2
  exit 1
fi
sources=("deb $mirror bookworm main")
for suite in bookworm-updates bookworm-security; do
  uri=$(suite_uri "$suite")
  [ -z "$uri" ] || sources+=("deb $uri $suite main")
done
note "Debian 12 from: ${sources[*]}"
timed "mmdebstrap (minbase, man-db)" $sudo mmdebstrap --quiet --variant=minbase --include=man-db \
  --aptopt='Acquire::Retries "5"' bookworm "$work/bookworm.tar.gz" "${sources[@]}"

# What piuparts' chroots see of this machine: one folder, bind-mounted at the same path.
shared=$work/chroot
repository=$shared/repository
mkdir -p "$repository" "$work/audio" "$work/scripts"

# The previous version: this package's files, a lower version, in a repository apt can read.
previous=$work/previous
dpkg-deb -R "$deb" "$previous"
sed -i "s/^Version: .*/Version: ${version}~previous/" "$previous/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -b "$previous" "$repository/podcast_${version}~previous_${arch}.deb" >/dev/null
(cd "$repository" && dpkg-scanpackages --multiversion . 2>/dev/null >Packages)

# 3. The test server, the files the chroot's check reads, and piuparts.
"$testserver" generate-audio --out "$work/audio/episode-7.wav" --seconds 5
"$testserver" serve --root "$root/Demo" --mount "/audio=$work/audio" \
  >"$work/server-url" 2>"$logs/server.log" &
server=$!
for _ in $(seq 1 200); do [ -s "$work/server-url" ] && break; sleep 0.05; done
base=$(head -n1 "$work/server-url")
[ -n "$base" ] || { echo "package-test: the test server did not start" >&2; exit 1; }
sed "s|@FILES@|$shared|" Scripts/piuparts/post_install_podcast_runs.in >"$work/scripts/post_install_podcast_runs"
chmod 755 "$work/scripts/post_install_podcast_runs"
echo "$version" >"$shared/podcast-version"
echo "$base" >"$shared/podcast-server"
curl -sf "$base/feed.xml" -o "$shared/podcast-feed.xml"

extra=()
for source in "${sources[@]:1}"; do extra+=(--extra-repo "$source"); done
status=0
timed "piuparts (install, purge; upgrade from ${version}~previous, purge)" \
  $sudo piuparts --distribution bookworm --basetgz "$work/bookworm.tar.gz" --update-retries 5 \
  --mirror "$mirror main" "${extra[@]}" \
  --extra-repo "deb [trusted=yes] file://$repository ./" --bindmount "$shared" \
  --scriptsdir /etc/piuparts/scripts --scriptsdir "$work/scripts" \
  "$deb" >"$logs/piuparts.log" 2>&1 || status=$?
if [ "$status" != 0 ]; then
  tail -n 80 "$logs/piuparts.log" >&2
  echo "package-test: piuparts failed (exit $status); its whole log is $logs/piuparts.log" >&2
  exit 1
fi
grep -h "podcast .* works here without Swift" "$logs/piuparts.log" | sed 's/^[^a-z]*//' || true
downloads=$(grep -c '^GET /audio/episode-7.wav ' "$logs/server.log" || true)
if [ "$downloads" -lt 2 ]; then
  echo "package-test: the test server saw $downloads downloads of episode 7, not one per piuparts test" >&2
  exit 1
fi
note "the chroots downloaded episode 7 from the test server $downloads times"
echo "--- piuparts' verdicts and last lines (whole log: $logs/piuparts.log):"
grep 'INFO: PASS' "$logs/piuparts.log"
tail -n 1 "$logs/piuparts.log"
echo "--- summary"
printf '%s\n' "${summary[@]}"
