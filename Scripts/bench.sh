#!/usr/bin/env bash
# make bench: podcast against its natural baselines, measured in the same run on this machine.
# Every timed row has the wall time, the CPU time (user + sys) and the peak resident memory of
# the tool and of its baseline; on a shared machine the wall times move with the other load,
# the CPU times and peaks far less, so the ratios that carry targets are CPU and memory where
# the wall time mostly measures the machine.
#   0. start-up: podcast --help vs curl --version
#   1. parsing a 20,000-episode (~90 MB) feed: podcast episodes --json vs xmllint --stream,
#      from the file and by URL from the loopback server (peak memory by URL vs by file)
#   2. one 1 GiB download over loopback: podcast download vs curl -o
#   3. 50 episodes of 20 MB: podcast download --all --concurrency 8 vs curl --parallel
#   4. sync of 200 subscriptions: first run, then a run where nothing changed (all 304)
#   5. sync at scale (BENCH_SYNC_FEEDS, default 200 2000 10000): import, cold and warm sync
#      against curl --parallel fetching the same feeds and files (cold) or asking for them
#      conditionally (warm), with CPU, peak memory and the growth from one size to the next,
#      and the file-system work and the database rows podcast's promises need for the same
#      episodes (fs-floor.c, db-floor.c)
#   6. an emulated internet (Scripts/bench-wan.sh; needs root, says so and is skipped without):
#      cold and warm syncs over HTTPS/HTTP2 at an 80 ms round trip against curl --parallel
#   7. find: a library of FIND_FEEDS (default 2,000) feeds x 50 episodes with ~1 kB of notes
#      each and 100 downloaded episodes with a one-hour transcript (Scripts/find-library.py):
#      a two-word `find` (start-up included), `find --rebuild` with the index's size, and the
#      200-feed cold syncs' CPU with the index kept against without
#   8. the syncs of 5 against nginx on loopback serving the feeds as static files (ETag,
#      Last-Modified, 304s: a server that costs next to nothing), NGINX_SYNC_FEEDS (default
#      200 10000), cold (NGINX_COLD_ROUNDS) and warm against curl --parallel-max 8; needs root
#      and nginx, says so and is skipped without
# BENCH_SECTIONS (default "0 1 2 3 4 5 7 8 6") runs only the sections it lists.
set -euo pipefail
bin="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/bench-out"
rm -rf "$work"
mkdir -p "$work/files" "$work/feeds"
timer=/usr/bin/time
# Each comparison runs BENCH_ROUNDS times, the tool and its baseline taking turns, and reports
# the median of each figure over the rounds: one run on a shared 2-core VM can be off by 2x.
rounds="${BENCH_ROUNDS:-5}"
sections="${BENCH_SECTIONS:-0 1 2 3 4 5 7 8 6}"
section() { [[ " $sections " == *" $1 "* ]]; }

# measure NAME COMMAND...: "wall user sys cpu peakKB" (seconds; cpu = user + sys) appended to
# $work/NAME.runs.
# sync(1) first, so one run's dirty pages are not written back on the next one's time.
# The wall time comes from bash's microsecond clock, not from time(1), whose 10 ms steps are
# a third of a warm 200-feed sync.
measure() {
  local name="$1" start end
  shift
  sync
  start=$EPOCHREALTIME
  "$timer" -f "%U %S %M" -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err"
  end=$EPOCHREALTIME
  awk -v s="$start" -v e="$end" '{ printf "%.4f %s %s %.2f %s\n", e - s, $1, $2, $1 + $2, $3 }' "$work/$name.time" >"$work/$name.last"
  # $work/NAME.time holds this run until `median` replaces it with the medians of all.
  mv "$work/$name.last" "$work/$name.time"
  cat "$work/$name.time" >>"$work/$name.runs"
}
# combine NAME A B: the last runs of A and B, one after the other, as one run of NAME (walls
# and CPU times added, the higher peak): "import + first sync".
combine() {
  { tail -n 1 "$work/$2.runs"; tail -n 1 "$work/$3.runs"; } | awk '
    { for (i = 1; i <= 4; i++) sum[i] += $i; if ($5 > peak) peak = $5 }
    END { printf "%.4f %.2f %.2f %.2f %d\n", sum[1], sum[2], sum[3], sum[4], peak }' >>"$work/$1.runs"
}
# setaside PATH...: moves what a round made out of the way instead of deleting it; all of it
# goes when the bench ends. On ext4 without a journal (this machine's /), every file made in the
# minutes after many deletions searches past each recently freed inode (`recently_deleted`),
# so a sync right after `rm -rf` of the last round's library paid for those deletions, and the
# tool that makes more files (podcast: a folder and a playlist per podcast, a kept copy per
# feed) paid more, more with every round: podcast's 200-feed cold walls rose 0.60 -> 0.87 s over
# five rounds while curl's stayed flat.
mkdir -p "$work/set-aside"
setaside() {
  local path
  for path in "$@"; do
    if [ -e "$path" ]; then mv "$path" "$work/set-aside/$RANDOM$RANDOM-${path##*/}"; fi
  done
}
# median NAME: the median of each figure of NAME's runs, each on its own, in $work/NAME.time.
median() {
  local column
  for column in 1 2 3 4 5; do
    awk -v c="$column" '{ print $c }' "$work/$1.runs" | sort -g | awk '{ v[NR] = $1 } END { printf "%s ", v[int((NR + 1) / 2)] }'
  done >"$work/$1.time"
}
wall() { awk '{printf "%.3f", $1}' "$work/$1.time"; }
user() { awk '{printf "%.2f", $2}' "$work/$1.time"; }
sys() { awk '{printf "%.2f", $3}' "$work/$1.time"; }
cpu() { awk '{printf "%.2f", $4}' "$work/$1.time"; }
rss() { awk '{printf "%.0f", $5 / 1024}' "$work/$1.time"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
walls() { awk '{ printf "%s%.3f", sep, $1; sep = " " }' "$work/$1.runs"; }
row() {
  printf '  %-38s %7s s wall %6s s cpu (%s user + %s sys) %4s MB peak  (walls: %s)\n' "$1" "$(wall "$2")" "$(cpu "$2")" "$(user "$2")" "$(sys "$2")" "$(rss "$2")" "$(walls "$2")"
}
# floors: compiles the two floors a cold sync's CPU is read against, the file-system work its
# promises need (Scripts/fs-floor.c: $floor) and the rows it must leave in SQLite
# (Scripts/db-floor.c: $dbfloor); each is left empty, and its rows out, when it cannot be built.
floors() {
  floor=""
  dbfloor=""
  if command -v cc >/dev/null && cc -O2 -o "$work/fs-floor" "$root/Scripts/fs-floor.c" 2>/dev/null; then
    floor="$work/fs-floor"
  else
    echo "  (no C compiler: the file-system floor rows are left out)"
  fi
  if [ -n "$floor" ] && cc -O2 -o "$work/db-floor" "$root/Scripts/db-floor.c" -lsqlite3 -lz 2>/dev/null; then
    dbfloor="$work/db-floor"
  elif [ -n "$floor" ]; then
    echo "  (no SQLite or zlib headers: the database floor rows are left out)"
  fi
}
# againstfloors PREFIX: "Rx curl's + both floors' (S s)" for PREFIXimportcold, when both ran.
againstfloors() {
  if [ -n "$floor" ] && [ -n "$dbfloor" ]; then
    local all
    all=$(awk -v a="$(cpu "$1curlcold")" -v b="$(cpu "$1floor")" -v c="$(cpu "$1dbfloor")" 'BEGIN { printf "%.2f", a + b + c }')
    echo "$(ratio "$(cpu "$1importcold")" "$all")x curl's + the file-system and database floors' ($all s)"
  fi
}

echo "podcast bench on $(nproc) cores, $(uname -sr); median of $rounds rounds; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "(wall times move with whatever else the machine runs; CPU = user + sys and the peak resident memory far less)"

# startup NAME COMMAND...: microseconds per run of COMMAND, wall and CPU (user + sys), over a
# block of 50 runs, appended to $work/NAME.runs; /usr/bin/time's 10 ms resolution cannot see a
# 10 ms program. The CPU is what this shell's children used during the block, from bash's
# `times` (run in this shell, not in a command substitution, which is a child of its own).
childcpu() { tail -n 1 "$1" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%.6f", t }'; }
startup() {
  local name="$1" start end
  shift
  times >"$work/times.before"
  start=$EPOCHREALTIME
  for _ in $(seq 50); do "$@" >/dev/null 2>&1; done
  end=$EPOCHREALTIME
  times >"$work/times.after"
  awk -v s="$start" -v e="$end" -v b="$(childcpu "$work/times.before")" -v a="$(childcpu "$work/times.after")" \
    'BEGIN { printf "%d %d\n", (e - s) * 20000, (a - b) * 20000 }' >>"$work/$name.runs"
}

if section 0; then
  echo
  echo "0. Start-up (blocks of 50 runs, the two taking turns; $((rounds * 4)) blocks each)"
  for _ in $(seq $((rounds * 4))); do
    startup curlversion curl --version
    startup podcasthelp "$bin/podcast" --help
  done
  usmedian() { awk -v c="$2" '{ print $c }' "$work/$1.runs" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  peak() { "$timer" -f "%M" "$@" 2>&1 >/dev/null | tail -n 1 | awk '{ printf "%.0f", $1 / 1024 }'; }
  printf '  %-38s %6s us per run %6s us cpu %4s MB peak\n' "curl --version" "$(usmedian curlversion 1)" "$(usmedian curlversion 2)" "$(peak curl --version)"
  printf '  %-38s %6s us per run %6s us cpu %4s MB peak\n' "podcast --help" "$(usmedian podcasthelp 1)" "$(usmedian podcasthelp 2)" "$(peak "$bin/podcast" --help)"
  echo "  start-up ratio podcast/curl: $(ratio "$(usmedian podcasthelp 1)" "$(usmedian curlversion 1)")x (target <= 1.3), cpu $(ratio "$(usmedian podcasthelp 2)" "$(usmedian curlversion 2)")x"
fi

# One server for the network benchmarks.
"$bin/podcast-testserver" serve --root "$work/files" >"$work/url" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work/set-aside"' EXIT
for _ in $(seq 1 100); do [ -s "$work/url" ] && break; sleep 0.05; done
base="$(head -n1 "$work/url")"

# noise BYTES: random episode bytes that never start with 0xFF. A random file that opens with
# what looks like an MPEG frame header goes to TagLib as an MP3, which then scans the whole
# body for a tag (80 ms a MiB): one run in a few thousand would time TagLib, not podcast.
noise() { printf 'N'; head -c "$(($1 - 1))" /dev/urandom; }

item() { # item N FILE LENGTH
  printf '<item><title>Episode %s</title><guid>ep-%s</guid><pubDate>Mon, 01 Jan 2024 00:%02d:00 +0000</pubDate><enclosure url="{{base}}/%s" length="%s" type="audio/mpeg"/></item>\n' "$1" "$1" "$(($1 % 60))" "$2" "$3"
}
feed() { # feed FILE < items
  { echo '<?xml version="1.0"?><rss version="2.0"><channel><title>Bench</title>'; cat; echo '</channel></rss>'; } >"$1"
}

if section 1; then
  echo
  echo "1. Parse a 20,000-episode feed"
  "$bin/podcast-testserver" generate-feed --episodes 20000 --out "$work/big-feed.xml" --base http://127.0.0.1:9
  printf '  feed: %s MB\n' "$(du -m "$work/big-feed.xml" | cut -f1)"
  for _ in $(seq "$rounds"); do
    measure xmllint xmllint --stream --noout "$work/big-feed.xml"
    measure parse "$bin/podcast" episodes "$work/big-feed.xml" --json
  done
  median xmllint
  median parse
  grep -c '"index"' "$work/parse.out" | xargs printf '  podcast listed %s episodes\n'
  row "xmllint --stream --noout" xmllint
  row "podcast episodes --json" parse
  echo "  time ratio podcast/xmllint: $(ratio "$(wall parse)" "$(wall xmllint)")x (target <= 1.5), cpu $(ratio "$(cpu parse)" "$(cpu xmllint)")x, peak $(rss parse) MB (target <= 64)"

  # The same feed by URL: the body is parsed as it arrives, so the peak should stay near the file's.
  cp "$work/big-feed.xml" "$work/files/big-feed.xml"
  for _ in $(seq "$rounds"); do
    measure parseurl "$bin/podcast" episodes "$base/big-feed.xml" --json
  done
  median parseurl
  row "podcast episodes URL --json" parseurl
  echo "  by URL: $(ratio "$(wall parseurl)" "$(wall xmllint)")x xmllint's time, $(ratio "$(cpu parseurl)" "$(cpu xmllint)")x its cpu, peak $(rss parseurl) MB = $(ratio "$(rss parseurl)" "$(rss parse)")x the by-file peak (target <= 1.1)"
  rm -f "$work/files/big-feed.xml"
  # Only a fetch opens libcurl, whose libraries alone are about 9 MB resident (curl's own peak
  # is 11 MB), so the ratio above also counts that fixed cost. What streaming must keep small is
  # what the body adds: the peak over a one-episode feed, by URL against by file.
  "$bin/podcast-testserver" generate-feed --episodes 1 --out "$work/files/tiny-feed.xml" --base http://127.0.0.1:9
  measure parsetiny "$bin/podcast" episodes "$work/files/tiny-feed.xml" --json
  measure parsetinyurl "$bin/podcast" episodes "$base/tiny-feed.xml" --json
  bodyfile=$(($(rss parse) - $(rss parsetiny)))
  bodyurl=$(($(rss parseurl) - $(rss parsetinyurl)))
  echo "  a one-episode feed peaks at $(rss parsetiny) MB by file, $(rss parsetinyurl) MB by URL; the 20,000 episodes add $bodyfile MB by file, $bodyurl MB by URL ($(ratio "$bodyurl" "$bodyfile")x)"
fi

if section 2; then
  echo
  echo "2. One 1 GiB episode over loopback"
  noise 1073741824 >"$work/files/big.mp3"
  item 1 big.mp3 1073741824 | feed "$work/files/one.xml"
  for _ in $(seq "$rounds"); do
    measure curl1 curl -sS -o "$work/curl-big.mp3" "$base/big.mp3"
    rm -f "$work/curl-big.mp3"
    measure curl1sync sh -c 'curl -sS -o "$1" "$2" && sync' sh "$work/curl-big.mp3" "$base/big.mp3"
    rm -f "$work/curl-big.mp3"
    rm -rf "$work/lib1"
    measure dl1 "$bin/podcast" download "$base/one.xml" 1 --library "$work/lib1"
  done
  median curl1
  median curl1sync
  median dl1
  row "curl -o" curl1
  row "curl -o, then sync" curl1sync
  row "podcast download" dl1
  echo "  throughput podcast/curl: $(ratio "$(wall curl1)" "$(wall dl1)") (target >= 0.90; $(ratio "$(wall curl1sync)" "$(wall dl1)") against curl+sync), cpu $(ratio "$(cpu dl1)" "$(cpu curl1)")x curl's, peak $(rss dl1) MB (target < 50)"
  cmp -s "$work/files/big.mp3" "$(find "$work/lib1/Episodes" -type f -name '*.mp3')" && echo "  file identical to the source" || echo "  FILE DIFFERS"
  rm -rf "$work/lib1" "$work/files/big.mp3"
fi

if section 3; then
  echo
  echo "3. 50 episodes of 20 MB, concurrency 8 (podcast caps each server at 2 connections)"
  noise 20000000 >"$work/files/ep-1.mp3"
  for n in $(seq 2 50); do ln "$work/files/ep-1.mp3" "$work/files/ep-$n.mp3"; done
  for n in $(seq 1 50); do item "$n" "ep-$n.mp3" 20000000; done | feed "$work/files/fifty.xml"
  urls=()
  for n in $(seq 1 50); do urls+=(-o "$work/curl50/ep-$n.mp3" "$base/ep-$n.mp3"); done
  # podcast fsyncs every finished episode before it appears; curl does not, so also time curl
  # followed by sync(1) for data that is really on disk.
  for _ in $(seq "$rounds"); do
    rm -rf "$work/curl50" "$work/lib50" "$work/lib50h" && mkdir -p "$work/curl50"
    measure curl50 curl -sS --parallel --parallel-max 8 "${urls[@]}"
    rm -rf "$work/curl50" && mkdir -p "$work/curl50"
    measure curl50sync sh -c 'curl -sS --parallel --parallel-max 8 "$@" && sync' sh "${urls[@]}"
    measure dl50 "$bin/podcast" download "$base/fifty.xml" --all --concurrency 8 --library "$work/lib50"
    measure dl50h "$bin/podcast" download "$base/fifty.xml" --all --concurrency 8 --per-host 8 --library "$work/lib50h"
  done
  for name in curl50 curl50sync dl50 dl50h; do median "$name"; done
  row "curl --parallel-max 8" curl50
  row "curl --parallel-max 8, then sync" curl50sync
  row "podcast download --all (2 per host)" dl50
  row "podcast download --all --per-host 8" dl50h
  echo "  throughput podcast/curl: $(ratio "$(wall curl50)" "$(wall dl50)") with the per-host cap, $(ratio "$(wall curl50)" "$(wall dl50h)") with --per-host 8, $(ratio "$(wall curl50sync)" "$(wall dl50h)") against curl+sync; cpu $(ratio "$(cpu dl50)" "$(cpu curl50)")x and $(ratio "$(cpu dl50h)" "$(cpu curl50)")x curl's"
  echo "  $(find "$work/lib50/Episodes" -type f -name '*.mp3' | wc -l) and $(find "$work/lib50h/Episodes" -type f -name '*.mp3' | wc -l) files"
  rm -rf "$work/curl50" "$work/lib50" "$work/lib50h" "$work/files"/ep-*.mp3
fi

if section 4; then
  echo
  echo "4. Sync 200 subscriptions"
  mkdir -p "$work/files/feeds"
  noise 50000 >"$work/files/feeds/tiny.mp3"
  {
    echo '<?xml version="1.0"?><opml version="2.0"><head><title>bench</title></head><body>'
    for n in $(seq 1 200); do
      for e in $(seq 1 20); do item "$e" "feeds/tiny.mp3?feed=$n&amp;ep=$e" 50000; done | feed "$work/files/feeds/feed-$n.xml"
      printf '<outline type="rss" text="Feed %s" xmlUrl="%s/feeds/feed-%s.xml"/>\n' "$n" "$base" "$n"
    done
    echo '</body></opml>'
  } >"$work/subscriptions.opml"
  "$bin/podcast" import "$work/subscriptions.opml" --library "$work/lib200" >/dev/null
  measure sync1 "$bin/podcast" sync --quiet --library "$work/lib200"
  measure sync2 "$bin/podcast" sync --quiet --library "$work/lib200"
  row "first sync (200 feeds, 200 downloads)" sync1
  row "second sync (nothing changed)" sync2
  echo "  second sync: $(wall sync2) s (target < 1 s); $(find "$work/lib200/Episodes" -type f -name '*.mp3' | wc -l) episode files after the first"
fi

# scalefeeds DIR N BYTES BASE: N feeds DIR/feed-NNNNNN.xml of three episodes each, whose
# enclosures are BASE/scaleN/ep.mp3?feed=...&ep=... (BYTES long), all of one size and one mtime:
# they share one ETag, so curl's warm run can send it to all. Sets $etag to it.
scalefeeds() {
  local dir="$1" n="$2" bytes="$3" base="$4" size
  awk -v n="$n" -v dir="$dir" -v bytes="$bytes" -v base="$base" 'BEGIN {
    for (f = 1; f <= n; f++) {
      file = sprintf("%s/feed-%06d.xml", dir, f)
      printf "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Feed %06d</title>\n", f > file
      for (e = 3; e >= 1; e--)
        printf "<item><title>Episode %d of %06d</title><guid>%06d-%d</guid><pubDate>Mon, 0%d Jan 2024 00:00:00 +0000</pubDate><enclosure url=\"%s/scale%d/ep.mp3?feed=%06d&amp;ep=%d\" length=\"%d\" type=\"audio/mpeg\"/></item>\n", e, f, f, e, e, base, n, f, e, bytes > file
      print "</channel></rss>" > file
      close(file)
    }
  }'
  touch -d '2024-01-01 00:00:00' "$dir"/feed-*.xml
  size=$(stat -c %s "$dir/feed-000001.xml")
  etag=$(printf '"%x-%x"' "$size" "$(date -d '2024-01-01 00:00:00' +%s)")
}

if section 5; then
  echo
  # 200 feeds get 1 MiB episodes, the setup issue 12's targets were measured on (castget 2.5x the
  # curl floor); the larger libraries get 1 kB ones, so their rows measure what podcast spends
  # per feed and per episode rather than the bytes (and 10,000 MiB would not fit every disk);
  # growth is reported only between sizes with the same episode size.
  bytes_for() { if [ "$1" -le 200 ]; then echo "${BENCH_SYNC_BYTES_200:-1048576}"; else echo "${BENCH_SYNC_BYTES:-1000}"; fi; }
  echo "5. Sync at scale: each feed has one new episode (BENCH_SYNC_FEEDS; BENCH_SYNC_BYTES_200 for 200 feeds or fewer, BENCH_SYNC_BYTES above)"
  # The file-system floor (Scripts/fs-floor.c): the syncs, folders and names podcast's promises
  # ask of this machine for the same episodes, with no network, parsing or database, so a cold
  # sync's CPU reads against curl's plus it. Finish rounds of 16, the downloads run at once.
  floors
  previous=""
  previousbytes=""
  for n in ${BENCH_SYNC_FEEDS:-200 2000 10000}; do
    dir="$work/files/scale$n"
    mkdir -p "$dir"
    syncbytes=$(bytes_for "$n")
    noise "$syncbytes" >"$dir/ep.mp3"
    scalefeeds "$dir" "$n" "$syncbytes" "{{base}}"
    {
      echo '<?xml version="1.0"?><opml version="2.0"><head><title>bench</title></head><body>'
      for f in $(seq -f '%06g' 1 "$n"); do
        printf '<outline type="rss" text="Feed %s" xmlUrl="%s/scale%s/feed-%s.xml"/>\n' "$f" "$base" "$n" "$f"
      done
      echo '</body></opml>'
    } >"$work/scale$n.opml"
    # curl's configs: every feed and its newest episode (cold), every feed asked conditionally (warm).
    for f in $(seq -f '%06g' 1 "$n"); do
      printf 'url = "%s/scale%s/feed-%s.xml"\noutput = "%s/curlscale/feed-%s.xml"\n' "$base" "$n" "$f" "$work" "$f"
      printf 'url = "%s/scale%s/ep.mp3?feed=%s&ep=3"\noutput = "%s/curlscale/ep-%s.mp3"\n' "$base" "$n" "$f" "$work" "$f"
    done >"$work/scale$n.cold.curl"
    for f in $(seq -f '%06g' 1 "$n"); do
      printf 'url = "%s/scale%s/feed-%s.xml"\noutput = "/dev/null"\n' "$base" "$n" "$f"
    done >"$work/scale$n.warm.curl"
    for name in import cold importcold warm curlcold curlcoldsync curlwarm floor dbfloor; do rm -f "$work/s$n$name.runs"; done
    # Every round for the smaller libraries; one at 10,000 feeds, which takes a minute a round.
    syncrounds="${BENCH_SYNC_ROUNDS:-$(if [ "$n" -le 2000 ]; then echo "$rounds"; else echo 1; fi)}"
    for _ in $(seq "$syncrounds"); do
      setaside "$work/libscale" "$work/curlscale" && mkdir -p "$work/curlscale"
      measure "s${n}curlcold" curl -sS --parallel --parallel-max 8 -K "$work/scale$n.cold.curl"
      # podcast fsyncs each episode before it appears; curl followed by sync(1) is the floor
      # for files that are really on disk.
      setaside "$work/curlscale" && mkdir -p "$work/curlscale"
      measure "s${n}curlcoldsync" sh -c 'curl -sS --parallel --parallel-max 8 -K "$1" && sync' sh "$work/scale$n.cold.curl"
      measure "s${n}curlwarm" curl -sS --parallel --parallel-max 8 -H "If-None-Match: $etag" -K "$work/scale$n.warm.curl"
      if [ -n "$floor" ]; then
        setaside "$work/floorscale"
        measure "s${n}floor" "$floor" "$work/floorscale" "$n" "$syncbytes" 16
      fi
      if [ -n "$dbfloor" ]; then
        setaside "$work/dbfloorscale" && mkdir -p "$work/dbfloorscale"
        measure "s${n}dbfloor" "$dbfloor" "$work/dbfloorscale/library.sqlite" "$n" 64 16
      fi
      measure "s${n}import" "$bin/podcast" import "$work/scale$n.opml" --library "$work/libscale"
      measure "s${n}cold" "$bin/podcast" sync --quiet --library "$work/libscale"
      combine "s${n}importcold" "s${n}import" "s${n}cold"
      measure "s${n}warm" "$bin/podcast" sync --quiet --library "$work/libscale"
    done
    for name in import cold importcold warm curlcold curlcoldsync curlwarm; do median "s$n$name"; done
    if [ -n "$floor" ]; then median "s${n}floor"; fi
    if [ -n "$dbfloor" ]; then median "s${n}dbfloor"; fi
    echo "  $n feeds, episodes of $syncbytes bytes:"
    row "curl --parallel-max 8, feeds + files" "s${n}curlcold"
    row "  the same, then sync" "s${n}curlcoldsync"
    row "curl --parallel-max 8, feeds, 304s" "s${n}curlwarm"
    if [ -n "$floor" ]; then row "file-system floor (fs-floor.c)" "s${n}floor"; fi
    if [ -n "$dbfloor" ]; then row "database floor (db-floor.c)" "s${n}dbfloor"; fi
    row "podcast import" "s${n}import"
    row "podcast sync, first (cold)" "s${n}cold"
    row "podcast import + first sync" "s${n}importcold"
    row "podcast sync, nothing changed (warm)" "s${n}warm"
    echo "    wall: cold $(ratio "$(wall "s${n}cold")" "$(wall "s${n}curlcold")")x the curl floor ($(ratio "$(wall "s${n}cold")" "$(wall "s${n}curlcoldsync")")x curl+sync), warm $(ratio "$(wall "s${n}warm")" "$(wall "s${n}curlwarm")")x; $(find "$work/libscale/Episodes" -type f -name '*.mp3' | wc -l) episode files"
    # The targets of issue 33, on CPU and memory, which the machine's other load moves little.
    echo "    cpu: import + first sync $(cpu "s${n}importcold") s, $(ratio "$(cpu "s${n}importcold")" "$(cpu "s${n}curlcold")")x curl's$(if [ "$n" = 200 ]; then echo " (target <= 3)"; fi); warm $(ratio "$(cpu "s${n}warm")" "$(cpu "s${n}curlwarm")")x curl's"
    if [ -n "$floor" ]; then
      both=$(awk -v a="$(cpu "s${n}curlcold")" -v b="$(cpu "s${n}floor")" 'BEGIN { printf "%.2f", a + b }')
      echo "    cpu against curl's + the file-system floor's ($both s): import + first sync $(ratio "$(cpu "s${n}importcold")" "$both")x"
    fi
    if [ -n "$dbfloor" ]; then
      echo "    cpu: import + first sync $(againstfloors "s${n}")"
    fi
    if [ "$n" = 10000 ]; then
      echo "    targets at 10,000: import + first sync $(cpu "s${n}importcold") s cpu (target <= 8), warm $(wall "s${n}warm") s wall (target <= 0.5)"
    fi
    if [ -s "$work/s200importcold.time" ] && [ "$n" != 200 ]; then
      echo "    peak $(rss "s${n}importcold") MB = $(ratio "$(rss "s${n}importcold")" "$(rss s200importcold)")x the 200-feed import + first sync's (target <= 1.5 at 10,000)"
    fi
    if [ -n "$previous" ] && [ "$previousbytes" = "$syncbytes" ]; then
      echo "    from $previous to $n feeds: cold x$(ratio "$(wall "s${n}cold")" "$(wall "s${previous}cold")") wall, x$(ratio "$(cpu "s${n}cold")" "$(cpu "s${previous}cold")") cpu; warm x$(ratio "$(wall "s${n}warm")" "$(wall "s${previous}warm")") wall; import x$(ratio "$(wall "s${n}import")" "$(wall "s${previous}import")") wall; peak x$(ratio "$(rss "s${n}importcold")" "$(rss "s${previous}importcold")")"
    fi
    previous="$n"
    previousbytes="$syncbytes"
    setaside "$work/libscale" "$work/curlscale" "$work/floorscale" "$work/dbfloorscale" "$dir"
  done
fi

if section 7; then
  echo
  findfeeds="${FIND_FEEDS:-2000}"
  echo "7. find: $findfeeds feeds x 50 episodes (~1 kB of notes each), 100 downloaded with a one-hour transcript"
  python3 "$root/Scripts/find-library.py" "$work/files/find" find "$findfeeds" 50 100 100 120 1000
  sed "s|BASE|$base|g" "$work/files/find/library.opml" >"$work/find.opml"
  "$bin/podcast" import "$work/find.opml" --library "$work/libfind" >/dev/null
  measure findsync "$bin/podcast" sync --quiet --library "$work/libfind"
  row "first sync, index kept ($findfeeds feeds)" findsync
  read -r -a query <"$work/files/find/query"
  # Each round: a find of the two words, and of two words only the transcripts say (their
  # 100 episodes' rows are 60 kB of text each, against 1 kB for the others': snippets are cut
  # from them).
  spoken="voyager golden"
  for _ in $(seq $((rounds * 3))); do
    measure findquery "$bin/podcast" find "${query[@]}" --library "$work/libfind"
    measure findspoken "$bin/podcast" find voyager golden --library "$work/libfind"
  done
  median findquery
  median findspoken
  "$bin/podcast" find "${query[@]}" --json --limit 1000 --library "$work/libfind" >"$work/findall.json"
  row "podcast find ${query[*]}" findquery
  row "podcast find $spoken (transcripts)" findspoken
  echo "  find of a two-word query: $(wall findquery) s median wall, start-up included (target <= 0.1); $(grep -c '"index"' "$work/findall.json") episodes hold both words"
  for _ in $(seq "${FIND_REBUILD_ROUNDS:-2}"); do
    measure findrebuild "$bin/podcast" find --rebuild --library "$work/libfind"
  done
  median findrebuild
  row "podcast find --rebuild" findrebuild
  echo "  --rebuild: $(wall findrebuild) s wall (target <= 60): $(cat "$work/findrebuild.out")"
  echo "  library database: $(du -m "$work/libfind/.podcast/library.sqlite" | cut -f1) MB"
  setaside "$work/libfind" "$work/files/find"

  # The index's cost to sync: cold syncs of 200 feeds with the index kept, and with it left
  # for the first `find` to build (an index not built yet is not written: the bench marks a
  # fresh library's index so), taking turns. Once as section 5 has them (3 episodes, no
  # notes, 1 MiB downloads), once with 50 episodes of 1 kB notes each.
  python3 "$root/Scripts/find-library.py" "$work/files/find200" find200 200 3 200 0 0 1048576
  python3 "$root/Scripts/find-library.py" "$work/files/find200n" find200n 200 50 200 0 120 1000
  for kind in find200 find200n; do
    sed "s|BASE|$base|g" "$work/files/$kind/library.opml" >"$work/$kind.opml"
    for name in with without; do rm -f "$work/$kind$name.runs"; done
    for _ in $(seq "$rounds"); do
      for name in without with; do
        setaside "$work/lib$kind"
        "$bin/podcast" import "$work/$kind.opml" --library "$work/lib$kind" >/dev/null
        if [ "$name" = without ]; then
          sqlite3 "$work/lib$kind/.podcast/library.sqlite" "UPDATE findState SET built = 0"
        fi
        measure "$kind$name" "$bin/podcast" sync --quiet --library "$work/lib$kind"
      done
    done
    median "${kind}with"
    median "${kind}without"
  done
  row "200 feeds x 3, no notes: index kept" find200with
  row "  index left unbuilt" find200without
  row "200 feeds x 50, 1 kB notes: index kept" find200nwith
  row "  index left unbuilt" find200nwithout
  echo "  cold sync cpu with the index kept: $(ratio "$(cpu find200with)" "$(cpu find200without)")x without (200 feeds as in section 5; target <= 1.1), $(ratio "$(cpu find200nwith)" "$(cpu find200nwithout)")x with 10,000 episodes of notes"
  setaside "$work/libfind200" "$work/libfind200n" "$work/files/find200" "$work/files/find200n"
fi

if section 8; then
  echo
  # 8. The same syncs against nginx serving the feeds as static files (ETag and Last-Modified,
  # 304 to a conditional GET): a server that costs next to nothing, where podcast-testserver is
  # itself CPU-bound on two cores and hides what a warm sync costs. nginx needs root here (it
  # serves as nobody from a folder of its own); without it, or without root, one line says so.
  title="8. Sync against nginx on loopback (NGINX_SYNC_FEEDS)"
  if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    echo "$title: skipped: no nginx (make bench installs it)"
  elif [ "$(id -u)" != 0 ]; then
    echo "$title: skipped: needs root to run nginx"
  else
    nginxbin=$(command -v nginx || echo /usr/sbin/nginx)
    ngx="$work/nginx"
    mkdir -p "$ngx/www"
    chmod 755 "$ngx" "$ngx/www"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >"$ngx/nginx.conf" <<CONF
user nobody nogroup;
worker_processes auto;
pid $ngx/nginx.pid;
error_log $ngx/error.log warn;
events { worker_connections 4096; }
http {
  types { application/rss+xml xml; audio/mpeg mp3; }
  default_type application/octet-stream;
  client_body_temp_path $ngx/body;
  proxy_temp_path $ngx/proxy;
  fastcgi_temp_path $ngx/fastcgi;
  uwsgi_temp_path $ngx/uwsgi;
  scgi_temp_path $ngx/scgi;
  log_format statuses '\$status';
  access_log $ngx/access.log statuses;
  sendfile on;
  tcp_nodelay on;
  keepalive_timeout 75s;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port;
    root $ngx/www;
  }
}
CONF
    if ! "$nginxbin" -q -c "$ngx/nginx.conf" -e "$ngx/error.log" 2>"$ngx/start.err"; then
      echo "$title: skipped: nginx did not start: $(head -n 1 "$ngx/start.err")"
    else
      trap 'kill "$(cat "$ngx/nginx.pid" 2>/dev/null)" 2>/dev/null || true; kill $server 2>/dev/null || true; rm -rf "$work/set-aside"' EXIT
      nbase="http://127.0.0.1:$port"
      echo "$title: $("$nginxbin" -v 2>&1 | sed 's|.*/||') on 127.0.0.1:$port, $(curl --version | head -n 1 | cut -d' ' -f1-2) --parallel-max 8"
      bytes_for() { if [ "$1" -le 200 ]; then echo "${BENCH_SYNC_BYTES_200:-1048576}"; else echo "${BENCH_SYNC_BYTES:-1000}"; fi; }
      floors
      # statuses: the access log's statuses since it was last emptied, counted.
      statuses() { sort "$ngx/access.log" | uniq -c | awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }'; }
      for n in ${NGINX_SYNC_FEEDS:-200 10000}; do
        dir="$ngx/www/scale$n"
        mkdir -p "$dir"
        syncbytes=$(bytes_for "$n")
        noise "$syncbytes" >"$dir/ep.mp3"
        scalefeeds "$dir" "$n" "$syncbytes" "$nbase"
        chmod -R a+rX "$dir"
        # nginx's own ETag ("mtime-size"), shared by every feed: what curl's warm run sends.
        etag=$(curl -sSI "$nbase/scale$n/feed-000001.xml" | tr -d '\r' | sed -n 's/^[Ee][Tt]ag: //p')
        {
          echo '<?xml version="1.0"?><opml version="2.0"><head><title>bench</title></head><body>'
          for f in $(seq -f '%06g' 1 "$n"); do
            printf '<outline type="rss" text="Feed %s" xmlUrl="%s/scale%s/feed-%s.xml"/>\n' "$f" "$nbase" "$n" "$f"
          done
          echo '</body></opml>'
        } >"$work/nginx$n.opml"
        for f in $(seq -f '%06g' 1 "$n"); do
          printf 'url = "%s/scale%s/feed-%s.xml"\noutput = "%s/curlnginx/feed-%s.xml"\n' "$nbase" "$n" "$f" "$work" "$f"
          printf 'url = "%s/scale%s/ep.mp3?feed=%s&ep=3"\noutput = "%s/curlnginx/ep-%s.mp3"\n' "$nbase" "$n" "$f" "$work" "$f"
        done >"$work/nginx$n.cold.curl"
        for f in $(seq -f '%06g' 1 "$n"); do
          printf 'url = "%s/scale%s/feed-%s.xml"\noutput = "/dev/null"\n' "$nbase" "$n" "$f"
        done >"$work/nginx$n.warm.curl"
        for name in import cold importcold warm curlcold curlwarm floor dbfloor; do rm -f "$work/n$n$name.runs"; done
        # Cold rounds (each a new library): every round at 200 feeds or fewer, three above (a
        # minute each at 10,000: the file-system floor alone moved by a third between single
        # rounds, more than the changes it judged); then the warm rounds on the last library,
        # taking turns with curl.
        coldrounds="${NGINX_COLD_ROUNDS:-$(if [ "$n" -le 2000 ]; then echo "$rounds"; else echo 3; fi)}"
        for _ in $(seq "$coldrounds"); do
          setaside "$work/libnginx" "$work/curlnginx" && mkdir -p "$work/curlnginx"
          measure "n${n}curlcold" curl -sS --parallel --parallel-max 8 -K "$work/nginx$n.cold.curl"
          if [ -n "$floor" ]; then
            setaside "$work/floornginx"
            measure "n${n}floor" "$floor" "$work/floornginx" "$n" "$syncbytes" 16
          fi
          if [ -n "$dbfloor" ]; then
            setaside "$work/dbfloornginx" && mkdir -p "$work/dbfloornginx"
            measure "n${n}dbfloor" "$dbfloor" "$work/dbfloornginx/library.sqlite" "$n" 64 16
          fi
          measure "n${n}import" "$bin/podcast" import "$work/nginx$n.opml" --library "$work/libnginx"
          measure "n${n}cold" "$bin/podcast" sync --quiet --library "$work/libnginx"
          combine "n${n}importcold" "n${n}import" "n${n}cold"
        done
        for _ in $(seq "$rounds"); do
          measure "n${n}curlwarm" curl -sS --parallel --parallel-max 8 -H "If-None-Match: $etag" -K "$work/nginx$n.warm.curl"
          : >"$ngx/access.log"
          measure "n${n}warm" "$bin/podcast" sync --quiet --library "$work/libnginx"
        done
        warmstatuses=$(statuses)
        for name in import cold importcold warm curlcold curlwarm; do median "n$n$name"; done
        if [ -n "$floor" ]; then median "n${n}floor"; fi
        if [ -n "$dbfloor" ]; then median "n${n}dbfloor"; fi
        echo "  $n feeds, episodes of $syncbytes bytes ($coldrounds cold rounds, $rounds warm):"
        row "curl --parallel-max 8, feeds + files" "n${n}curlcold"
        if [ -n "$floor" ]; then row "file-system floor (fs-floor.c)" "n${n}floor"; fi
        if [ -n "$dbfloor" ]; then row "database floor (db-floor.c)" "n${n}dbfloor"; fi
        row "podcast import + first sync" "n${n}importcold"
        row "curl --parallel-max 8, feeds, 304s" "n${n}curlwarm"
        row "podcast sync, nothing changed (warm)" "n${n}warm"
        echo "    warm: wall $(ratio "$(wall "n${n}warm")" "$(wall "n${n}curlwarm")")x curl's (target <= 1.5), cpu $(ratio "$(cpu "n${n}warm")" "$(cpu "n${n}curlwarm")")x (target <= 2), peak $(rss "n${n}warm") MB; nginx answered podcast's last warm run: $warmstatuses"
        coldline="    cold: import + first sync cpu $(ratio "$(cpu "n${n}importcold")" "$(cpu "n${n}curlcold")")x curl's$(if [ "$n" -le 200 ]; then echo " (target <= 3)"; fi)"
        if [ -n "$floor" ]; then
          both=$(awk -v a="$(cpu "n${n}curlcold")" -v b="$(cpu "n${n}floor")" 'BEGIN { printf "%.2f", a + b }')
          coldline+=", $(ratio "$(cpu "n${n}importcold")" "$both")x curl's + the floor's ($both s)$(if [ "$n" -gt 200 ]; then echo " (target <= 2)"; fi)"
        fi
        if [ -n "$dbfloor" ]; then coldline+=", $(againstfloors "n${n}")"; fi
        if [ -s "$work/n200importcold.time" ] && [ "$n" != 200 ]; then
          coldline+="; peak $(rss "n${n}importcold") MB = $(ratio "$(rss "n${n}importcold")" "$(rss n200importcold)")x the 200-feed run's (target <= 1.5)"
        fi
        echo "$coldline"
        setaside "$work/libnginx" "$work/curlnginx" "$work/floornginx" "$work/dbfloornginx" "$dir"
      done
      kill "$(cat "$ngx/nginx.pid")" 2>/dev/null || true
    fi
  fi
fi

if section 6; then
  echo
  # 6. Its own script (also `make bench-wan`): it sets up and removes a network namespace and
  # nginx, and prints one line instead when it cannot (not root, a tool missing).
  bash "$root/Scripts/bench-wan.sh" "$bin" || echo "6. An emulated internet (WAN): failed (exit status $?)"
fi

