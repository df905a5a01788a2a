#!/usr/bin/env bash
# Builds podcast's Debian package with dpkg-deb (see `make deb`), or only its staging tree.
#
#   Scripts/deb.sh stage BINARY MANPAGE STAGE_DIR   the package's tree and DEBIAN/control
#   Scripts/deb.sh build BINARY MANPAGE OUT_DIR     that, then OUT_DIR/podcast_<version>_<arch>.deb
#
# BINARY is the podcast executable (the release build, whose Swift runtime is linked in);
# it is copied stripped and run to print its version and shell completion scripts. Depends is
# computed from the libraries the binary links (dpkg-shlibdeps, from dpkg-dev; without it,
# the packages `dpkg -S` says own them), plus libcurl4, which podcast opens at run time
# (Sources/CCurl) and so appears in no ELF header.
#
# The packaged binary must start without the Swift toolchain (Scripts/check-static.sh): nothing
# is packaged otherwise.
#
# PODCAST_DEB_COMPRESSION (xz, gzip or none; default xz) is dpkg-deb's -Z. The level is 1, not
# dpkg's 6, so that `make deb` after `make build` takes seconds: xz -1 packs the 66 MB binary to a
# 19.4 MB package with 9 s of CPU, -6 to 16.6 MB with 44 s (gzip -9: 25 MB with 8 s).
# PODCAST_DEB_ALLOW_UNPACKAGED=1 packages a binary that needs libraries no package holds, left
# out of Depends, instead of failing: a debug build links the Swift runtime from the toolchain,
# which only the tests stage.
set -euo pipefail

mode=${1:?usage: deb.sh stage|build BINARY MANPAGE DIR}
binary=${2:?binary}
manpage=${3:?man page}
out=${4:?directory}
here=$(cd "$(dirname "$0")/.." && pwd)
# Absolute: the Depends step runs elsewhere.
binary=$(readlink -f "$binary")
manpage=$(readlink -f "$manpage")
mkdir -p "$out"
out=$(cd "$out" && pwd)
packaging=$here/Packaging
# The oldest libcurl with everything Sources/CCurl asks of it.
curl_depends="libcurl4 (>= 7.68.0)"

version=$("$binary" --version)
arch=$(dpkg --print-architecture)
name="podcast_${version}_${arch}"
if [ "$mode" = stage ]; then stage=$out; else stage=$out/.deb-stage/$name; fi
rm -rf "$stage"
install -d "$stage/DEBIAN" "$stage/usr/bin" "$stage/usr/share/man/man1" \
  "$stage/usr/share/doc/podcast" "$stage/usr/share/bash-completion/completions" \
  "$stage/usr/share/zsh/vendor-completions" "$stage/usr/share/fish/vendor_completions.d" \
  "$stage/usr/lib/systemd/user"

install -m 755 "$binary" "$stage/usr/bin/podcast"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/podcast"
if [ "${PODCAST_DEB_ALLOW_UNPACKAGED:-}" != 1 ] \
  && ! bash "$here/Scripts/check-static.sh" "$stage/usr/bin/podcast" >&2; then
  [ "$mode" = build ] && rm -rf "$out/.deb-stage"
  exit 1
fi
gzip -9n <"$manpage" >"$stage/usr/share/man/man1/podcast.1.gz"
chmod 644 "$stage/usr/share/man/man1/podcast.1.gz"
# Sourced by bash-completion, never run: no #! line.
"$binary" --generate-completion-script bash | sed '1{/^#!/d}' \
  >"$stage/usr/share/bash-completion/completions/podcast"
"$binary" --generate-completion-script zsh >"$stage/usr/share/zsh/vendor-completions/_podcast"
"$binary" --generate-completion-script fish >"$stage/usr/share/fish/vendor_completions.d/podcast.fish"
sed "s|@BINDIR@|/usr/bin|" "$packaging/podcast-sync.service.in" \
  >"$stage/usr/lib/systemd/user/podcast-sync.service"
install -m 644 "$packaging/podcast-sync.timer" "$stage/usr/lib/systemd/user/podcast-sync.timer"
install -m 644 "$packaging/copyright" "$stage/usr/share/doc/podcast/copyright"
# The date of the commit built, so the same sources make the same package.
date=$(git -C "$here" log -1 --format=%aD 2>/dev/null || date -R)
sed -e "s|@VERSION@|$version|" -e "s|@DATE@|$date|" "$packaging/changelog" \
  | gzip -9n >"$stage/usr/share/doc/podcast/changelog.gz"
find "$stage/usr" -type f ! -path '*/usr/bin/*' -exec chmod 644 {} +
find "$stage" -type d -exec chmod 755 {} +

# Depends: what the binary links, by the packages that hold those libraries.
depends() {
  local file=$1
  if command -v dpkg-shlibdeps >/dev/null; then
    # dpkg-shlibdeps reads debian/control from where it runs: give it a minimal one.
    local work
    work=$(mktemp -d)
    mkdir -p "$work/debian"
    printf 'Source: podcast\n\nPackage: podcast\nArchitecture: any\n' >"$work/debian/control"
    local flags=()
    [ "${PODCAST_DEB_ALLOW_UNPACKAGED:-}" = 1 ] && flags=(--ignore-missing-info -l"$(dirname "$binary")")
    local line
    line=$(cd "$work" && dpkg-shlibdeps -O "${flags[@]}" -e"$file" 2>"$work/warnings") || {
      cat "$work/warnings" >&2
      rm -rf "$work"
      return 1
    }
    rm -rf "$work"
    echo "${line#shlibs:Depends=}"
  else
    # The honest equivalent: each NEEDED library's owning package, unversioned.
    local packages=() lib path owner
    for lib in $(objdump -p "$file" | awk '/NEEDED/ { print $2 }'); do
      path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
      owner=""
      [ -n "$path" ] && owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | head -1 | cut -d: -f1)
      [ -z "$owner" ] && [ -n "$path" ] && owner=$(dpkg -S "$path" 2>/dev/null | head -1 | cut -d: -f1)
      if [ -z "$owner" ]; then
        [ "${PODCAST_DEB_ALLOW_UNPACKAGED:-}" = 1 ] && continue
        echo "deb.sh: no package holds $lib, which $file needs" >&2
        return 1
      fi
      packages+=("$owner")
    done
    printf '%s\n' "${packages[@]}" | sort -u | paste -sd, | sed 's/,/, /g'
  fi
}
linked=$(depends "$stage/usr/bin/podcast")
# A dependency on the runtime's own libraries from the toolchain (debug builds only) is no
# package's: dpkg-shlibdeps --ignore-missing-info leaves them out already.
all_depends="${linked:+$linked, }$curl_depends"

size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat >"$stage/DEBIAN/control" <<CONTROL
Package: podcast
Version: $version
Architecture: $arch
Maintainer: podcast maintainers <maintainers@users.noreply.a-seed-1df31650.example>
Installed-Size: $size
Depends: $all_depends
Suggests: bash-completion
Section: sound
Priority: optional
Description: command-line podcast downloader and archiver
 Finds shows in Apple's podcast directory, lists their episodes and downloads
 them, resumably, into one folder per podcast: tagged, with covers,
 transcripts, chapters, playlists and optionally a private RSS feed of the
 archive for a phone's podcast app.
 .
 Subscriptions are kept in a SQLite library and fetched by "podcast sync",
 which the systemd user timer podcast-sync.timer runs hourly once enabled with
 "systemctl --user enable --now podcast-sync.timer".
CONTROL
(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

[ "$mode" = stage ] && { echo "$stage"; exit 0; }
deb=$out/$name.deb
dpkg-deb --root-owner-group -Z"${PODCAST_DEB_COMPRESSION:-xz}" -z1 --build "$stage" "$deb" >/dev/null
rm -rf "$out/.deb-stage"
echo "$deb"
