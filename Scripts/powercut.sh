#!/usr/bin/env bash
# make powercut: power cuts under `podcast download` and `podcast sync`, then a reboot and a
# recovery run, on LazyFS (a FUSE filesystem that keeps every write in its own cache until the
# file is fsynced, and drops what is unsynced on command or crashes itself at an exact system
# call). kill -9 alone never tests durability: the page cache survives a killed process.
#
# usage: powercut.sh BIN_DIR LAZYFS      (as root; CUTS=N trials, POWERCUT_SEED=S repeats the
#                                          choices, POWERCUT_KINDS="wal torn" only those kinds)
#   BIN_DIR  holds podcast and podcast-testserver
#   LAZYFS   LazyFS's binary, or a launcher that runs it (e.g. run-lazyfs)
#
# Each trial mounts a fresh LazyFS for the library (in the "split" layout --episodes-dir is on
# another mount point of it, so episodes arrive there as staged copies), runs `download --all` or a first `sync --first all` of a five-episode feed served
# throttled by podcast-testserver, and cuts the power:
#   random     kill -9 at a random moment, then every unsynced write dropped
#   midbody    the same once 12-18 MiB of the 20 MiB episode arrived
#   link       LazyFS crashes at the link of an episode into Episodes (before or after it)
#   wal        ... at an fsync of the library's WAL
#   partial    ... at an fsync of a partial download
#   staged     ... at the fsync or link of a staged copy under Episodes (split layout)
#   side       ... at a side file's temporary (its fsync, or its rename into place)
#   playlist   ... at the temporary of the playlist or of a page (--write-page: the folder's
#              index.html and the Episodes index; its fsync, or its rename into place)
#   torn       the 20 MiB episode's partial torn: once a smaller episode of the batch is done,
#              two later writes are kept and the ones before them lost (lazyfs::torn-seq)
# (an exact cut is armed at a random moment, so it hits a random occurrence of that call),
# and every fourth trial is also a reboot with pid reuse: each pid of the dead run is handed to
# a live process (ns_last_pid) before the recovery run. Every cut is a reboot for podcast: the
# runs before it and the recovery run each see their own boot id (/proc/sys/kernel/random/boot_id,
# bind-mounted in a mount namespace of their own), as after a real power cut.
#
# Checked right after the cut: the database passes integrity_check; the full-text index is
# consistent with the rows (FTS5's integrity-check, a row of it for every episode and none for
# another); every download recorded done has its file, byte-exact; nothing under Episodes is
# torn or foreign (a leftover temporary is allowed until the recovery run); every page is whole
# and lists only episode files that are on disk. Checked after the recovery run: it exits 0;
# integrity_check and the index's consistency, and every transcript beside a downloaded
# episode in the index; every episode exactly once and byte-exact, the Episodes tree exactly the one
# an uncut run makes (nothing foreign, nothing left over), nothing left in .podcast/ either;
# a resume asks Range only from a length the cut left durable (status --json's durableBytes);
# a cut after 12 MiB of the 20 MiB episode resumes it with Range from at least 8 MiB.
#
# Moments are random (seeded) times and byte counts: this is a stress run, not a test; the
# tally says how many cuts of each kind hit their call. Needs root (FUSE with allow_other,
# mount namespaces, ns_last_pid), fusermount3, unshare and sqlite3.
set -uo pipefail
bin="$(cd "$1" && pwd)"
lazyfs="$2"
cuts="${CUTS:-20}"
seed="${POWERCUT_SEED:-$((RANDOM * 32768 + RANDOM))}"
RANDOM=$seed
rate=8000000 # bytes a second per response: the 20 MiB episode takes about 2.6 s
mib=1048576

[ "$(id -u)" = 0 ] || { echo "powercut: needs root (FUSE allow_other, mount namespaces, ns_last_pid)" >&2; exit 2; }
for tool in fusermount3 unshare sqlite3 mountpoint; do
  command -v "$tool" >/dev/null || { echo "powercut: needs $tool" >&2; exit 2; }
done

# Short paths: a LazyFS command names files by their path on the backing filesystem and must
# fit in 99 bytes (the FIFO is read 100 bytes at a time), and a config path with "-o" in it
# is silently ignored.
w="$(mktemp -d /tmp/pcXXX)"
server=""
sleepers=()
cleanup() {
  [ "$BASHPID" = $$ ] || return 0 # never in a child that has not yet become its command
  unmount_fs 2>/dev/null
  [ -n "$server" ] && kill "$server" 2>/dev/null
  for pid in "${sleepers[@]}"; do kill -9 "$pid" 2>/dev/null; done
  if [ "${keep:-0}" = 1 ]; then
    echo "powercut: kept $w for inspection (failed trials under $w/failed)"
  else
    rm -rf "$w"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the server and its feed --------------------------------------------------------------

mkdir -p "$w/srv" "$w/cfg"
noise() { printf 'N'; head -c "$(($1 - 1))" /dev/urandom; } # never an MPEG frame: left untagged
# number:size; ep2 is the large one, the two newest download together.
episodes=(1:716800 2:$((20 * mib)) 3:3145728 4:6291456 5:1572864)
big=ep2.mp3
small=ep1.mp3
for spec in "${episodes[@]}"; do noise "${spec#*:}" >"$w/srv/ep${spec%:*}.mp3"; done
for n in 1 3; do printf 'WEBVTT\n\n00:00.000 --> 00:01.000\nEpisode %s\n' "$n" >"$w/srv/ep$n.vtt"; done
printf '{"version":"1.2.0","chapters":[{"startTime":0,"title":"Start"},{"startTime":5,"title":"Middle"}]}\n' >"$w/srv/ep4.json"
echo 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==' | base64 -d >"$w/srv/cover.png"
{
  echo '<?xml version="1.0"?>'
  echo '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">'
  echo '<channel><title>Power Cut</title><link>{{base}}/</link><itunes:image href="{{base}}/cover.png"/>'
  for spec in "${episodes[@]}"; do
    n=${spec%:*}
    printf '<item><title>Episode %s</title><guid>pc-%s</guid><pubDate>Mon, 0%s Jan 2024 10:00:00 +0000</pubDate>' "$n" "$n" "$((6 - n))"
    printf '<enclosure url="{{base}}/ep%s.mp3" length="%s" type="audio/mpeg"/>' "$n" "${spec#*:}"
    [ -f "$w/srv/ep$n.vtt" ] && printf '<podcast:transcript url="{{base}}/ep%s.vtt" type="text/vtt"/>' "$n"
    [ -f "$w/srv/ep$n.json" ] && printf '<podcast:chapters url="{{base}}/ep%s.json" type="application/json+chapters"/>' "$n"
    echo '</item>'
  done
  echo '</channel></rss>'
} >"$w/srv/show.xml"

"$bin/podcast-testserver" serve --root "$w/srv" --rate "$rate" >"$w/url" 2>"$w/server.log" &
server=$!
for _ in $(seq 100); do [ -s "$w/url" ] && break; sleep 0.05; done
base="$(head -n1 "$w/url")"
[ -n "$base" ] || { echo "powercut: the test server did not start" >&2; exit 1; }
feed="$base/show.xml"
export XDG_CONFIG_HOME="$w/cfg" # no user's config.toml

# --- LazyFS -------------------------------------------------------------------------------

# The library's filesystem: LazyFS over the backing directory $w/L, mounted at $w/l. The
# "split" layout reaches Episodes through a bind mount of a folder of it ($w/e): another mount
# point, so link(2) into it fails with EXDEV and episodes arrive as staged copies, as on a
# second filesystem without O_TMPFILE (FUSE, FAT, many network filesystems), while one crash
# still takes both down at the same instant, as a power cut does.
lib="$w/l"
fs_pid=""
mount_fs() {
  mkdir -p "$w/L" "$lib"
  rm -f "$w/fifo"
  : >"$w/lazyfs.log"
  printf '%s\n' '[faults]' "fifo_path=\"$w/fifo\"" '[cache]' 'apply_eviction=false' \
    '[cache.simple]' 'custom_size="192MB"' 'blocks_per_page=1' '[filesystem]' \
    'log_all_operations=false' "logfile=\"$w/lazyfs.log\"" >"$w/lazyfs.toml"
  "$lazyfs" "$lib" --config-path "$w/lazyfs.toml" -o allow_other -o modules=subdir \
    -o "subdir=$w/L" -f >>"$w/lazyfs.out" 2>&1 &
  fs_pid=$!
  disown
  for _ in $(seq 600); do
    grep -q 'waiting for fault commands' "$w/lazyfs.log" && mountpoint -q "$lib" && return 0
    sleep 0.05
  done
  echo "powercut: LazyFS did not mount $lib (see $w/lazyfs.out)" >&2
  exit 1
}
# gone PID: waits until a process (disowned: bash reaps it and says nothing) is no more.
gone() { for _ in $(seq 1000); do [ -e "/proc/$1" ] || return 0; sleep 0.01; done; }
fs_alive() {
  [ -n "$fs_pid" ] && [ -e "/proc/$fs_pid" ] && ! grep -q '^State:.*Z' "/proc/$fs_pid/status" 2>/dev/null
}
unmount_fs() {
  umount -l "$w/e" 2>/dev/null
  [ -n "$fs_pid" ] || return 0
  fusermount3 -u "$lib" 2>/dev/null || fusermount3 -uz "$lib" 2>/dev/null
  kill -9 "$fs_pid" 2>/dev/null
  gone "$fs_pid"
  fs_pid=""
}
# fault COMMAND: one command to LazyFS, acknowledged in its log before the next is sent (two
# in the FIFO at once would be read as one).
fault() {
  local command="$1" before
  [ ${#command} -le 99 ] || { echo "powercut: LazyFS command over 99 bytes: $command" >&2; exit 1; }
  fs_alive || return 1
  before=$(grep -c 'received' "$w/lazyfs.log")
  echo "$command" >"$w/fifo"
  for _ in $(seq 200); do
    [ "$(grep -c 'received' "$w/lazyfs.log")" -gt "$before" ] && break
    fs_alive || break
    sleep 0.01
  done
  if [ "$command" = "lazyfs::clear-cache" ]; then
    for _ in $(seq 500); do
      grep -q 'cache is cleared' "$w/lazyfs.log" && return 0
      fs_alive || return 0
      sleep 0.01
    done
  fi
}
# layout LAYOUT: the library on an empty LazyFS, Episodes inside it ("one") or through the bind
# mount ("split").
layout() {
  rm -rf "$w/L"
  mount_fs
  export PODCAST_LIBRARY="$lib"
  if [ "$1" = split ]; then
    bind_episodes
    export PODCAST_EPISODES_DIR="$w/e/Episodes"
  else
    export PODCAST_EPISODES_DIR="$lib/Episodes"
  fi
}
bind_episodes() {
  mkdir -p "$lib/x" "$w/e"
  mount --bind "$lib/x" "$w/e"
}
# remount LAYOUT: the same backing directory with LazyFS's cache empty: what survived.
remount() {
  unmount_fs
  mount_fs
  if [ "$1" = split ]; then bind_episodes; fi
}

# --- boots and processes --------------------------------------------------------------------

# in_boot ID COMMAND...: COMMAND with /proc/sys/kernel/random/boot_id reading ID, in a mount
# namespace of its own.
in_boot() {
  local id="$1"
  shift
  [ -f "$w/boot-$id" ] || cat /proc/sys/kernel/random/uuid >"$w/boot-$id"
  unshare -m -- sh -c 'mount --bind "$0" /proc/sys/kernel/random/boot_id && exec "$@"' "$w/boot-$id" "$@"
}
# start_in_boot ID OUTPUT COMMAND...: in_boot in the background, output to OUTPUT; the pid in
# $started is COMMAND's own (unshare and sh exec it), so a kill -9 of it is the power going.
# (A function sent to the background runs in a subshell of its own: $! would be that shell,
# and the command would outlive the "cut".)
start_in_boot() {
  local id="$1" output="$2"
  shift 2
  [ -f "$w/boot-$id" ] || cat /proc/sys/kernel/random/uuid >"$w/boot-$id"
  unshare -m -- sh -c 'mount --bind "$0" /proc/sys/kernel/random/boot_id && exec "$@"' \
    "$w/boot-$id" "$@" >"$output" 2>&1 &
  started=$!
  disown
}
# hand_pid PID: a live process (a sleep) gets PID, as after a reboot any process may. A miss is
# killed with SIGKILL: just forked, it may still be this shell, whose TERM trap would run.
hand_pid() {
  local target="$1" pid
  for _ in $(seq 300); do
    echo $((target - 1)) >/proc/sys/kernel/ns_last_pid 2>/dev/null || return 1
    sleep 600 &
    pid=$!
    disown
    if [ "$pid" = "$target" ]; then
      sleepers+=("$pid")
      return 0
    fi
    kill -9 "$pid" 2>/dev/null
  done
  return 1
}

# --- one library on LazyFS ------------------------------------------------------------------

run_args() { # COMMAND: the run under test, writing pages too
  if [ "$1" = download ]; then echo "download $feed --all --write-page"; else echo "sync --write-page"; fi
}
prepare() { # COMMAND BOOT: what a sync needs before it runs (subscribe is durable when it returns)
  [ "$1" = sync ] || return 0
  in_boot "$2" "$bin/podcast" subscribe "$feed" --first all >>"$w/run.log" 2>&1
}
# db SQL: a query of the library, never creating one (a cut may come before podcast made it).
db() { sqlite3 -cmd '.timeout 5000' "file:$lib/.podcast/library.sqlite?mode=rw" "$@" 2>&1; }
has_library() { [ -f "$lib/.podcast/library.sqlite" ]; }
# tree DIR: "size path" of every file under DIR, sorted, paths relative to DIR. FUSE renames
# a file deleted while open to .fuse_hidden<N> and removes it once closed; when the FUSE
# process dies first (a crash fault), the name stays in the backing folder, as an orphan inode
# stays on a real disk until the next mount frees it: not something podcast left, so left out.
tree() { (cd "$1" 2>/dev/null && find . -type f ! -name '.fuse_hidden*' -printf '%s %P\n' | sort -k2); }
server_lines() { wc -l <"$w/server.log"; }
# state_names: what is in .podcast/ (SQLite's -wal and -shm aside), the boot stamp of the
# library's last sweep (runs/boot-<boot id>) under one name whatever the boot.
state_names() {
  (cd "$lib/.podcast" && find . ! -name '.fuse_hidden*' -printf '%P\n') | grep -v -e '-wal$' -e '-shm$' |
    sed 's|^runs/boot-.*|runs/boot-ID|'
}

# --- calibration: an uncut run of each command makes the tree every trial must end with -------

declare -A wall
for command in download sync; do
  for lay in one split; do
    layout "$lay"
    prepare "$command" cal
    start=$EPOCHREALTIME
    # shellcheck disable=SC2046
    if ! in_boot cal "$bin/podcast" $(run_args "$command") >"$w/cal.log" 2>&1; then
      echo "powercut: the uncut $command failed:" >&2
      cat "$w/cal.log" >&2
      exit 1
    fi
    wall[$command]=$(awk -v s="$start" -v e="$EPOCHREALTIME" 'BEGIN { printf "%d", (e - s) * 1000 }')
    cp -a "$PODCAST_EPISODES_DIR" "$w/expected-$command-$lay"
    state_names | sort >"$w/expected-state-$command-$lay"
    if [ "$command" = download ]; then
      big_partial="$(db "SELECT partialPath FROM downloads WHERE url = '$base/$big'")"
      big_partial="${big_partial##*/}"
    fi
    unmount_fs
  done
done
[ -n "$big_partial" ] || { echo "powercut: could not learn the partial file's name" >&2; exit 1; }
echo "podcast power cuts on LazyFS: $cuts trials, seed $seed (POWERCUT_SEED=$seed repeats the choices)"
echo "uncut runs: download ${wall[download]} ms, sync ${wall[sync]} ms; $(tree "$w/expected-download-one" | wc -l) files under Episodes"

# --- checks ---------------------------------------------------------------------------------

declare -A inv_checked inv_failed kind_trials kind_triggered kind_clean
invariants=(integrity find-index done-has-file nothing-torn page-whole recovery-exit
  every-episode-once side-files transcripts-indexed nothing-left-over resume-from-durable
  range-after-checkpoint)
declare -A inv_text=(
  [integrity]="PRAGMA integrity_check"
  [find-index]="the find index as the rows (FTS5 integrity-check, a row per episode)"
  [transcripts-indexed]="downloaded episodes' transcripts in the find index (after recovery)"
  [done-has-file]="no done record without its exact, durable file (after the cut)"
  [nothing-torn]="nothing torn or foreign under Episodes (after the cut)"
  [page-whole]="every page whole, listing only files on disk (after the cut)"
  [recovery-exit]="the recovery run exits 0"
  [every-episode-once]="every episode exactly once, byte-exact, recorded done"
  [side-files]="side files, playlist and pages as an uncut run leaves them"
  [nothing-left-over]="nothing foreign or left over (Episodes, .podcast)"
  [resume-from-durable]="a resume asks Range only from a durable length"
  [range-after-checkpoint]="a cut after 12 MiB resumes with Range from >= 8 MiB"
)
trial_failures=()
check() { # NAME OK(0/1) DETAIL
  inv_checked[$1]=$((${inv_checked[$1]:-0} + 1))
  if [ "$2" != 0 ]; then
    inv_failed[$1]=$((${inv_failed[$1]:-0} + 1))
    trial_failures+=("$1: $3")
  fi
}
server_file() { # URL -> the server's file for it
  local path="${1#"$base"/}"
  echo "$w/srv/${path%%\?*}"
}
check_integrity() {
  local answer=ok
  has_library && answer="$(db 'PRAGMA integrity_check')"
  [ "$answer" = ok ]
  check integrity $? "$answer"
}
# The full-text index as the transactions that write it leave it: FTS5's own check of its
# index against its text, a row (text and sources) for each episode of a subscription and none
# for anything else, whatever the cut interrupted.
check_find_index() {
  local answer="" orphans missing
  if has_library && [ -n "$(db "SELECT 1 FROM sqlite_master WHERE name = 'findText'")" ]; then
    answer="$(db "INSERT INTO findText (findText, rank) VALUES ('integrity-check', 1)")"
    orphans="$(db "SELECT (SELECT count(*) FROM findText_content WHERE id NOT IN (SELECT id FROM episodes))
      + (SELECT count(*) FROM findSources WHERE episodeId NOT IN (SELECT id FROM episodes))
      + (SELECT count(*) FROM findText_content WHERE id NOT IN (SELECT episodeId FROM findSources))")"
    missing="$(db "SELECT count(*) FROM episodes WHERE (SELECT built FROM findState) = 1
      AND id NOT IN (SELECT episodeId FROM findSources)")"
    [ "$orphans" = 0 ] || answer+=" $orphans index rows without their episode or sources;"
    [ "$missing" = 0 ] || answer+=" $missing episodes not indexed;"
  fi
  [ -z "$answer" ]
  check find-index $? "$answer"
}
# After the recovery run: each transcript beside an episode a subscription downloaded is in
# the index (a cut between the file and its indexing is healed by the run that follows it).
check_transcripts_indexed() {
  local bad="" id file stem
  while IFS='|' read -r id file; do
    [ -n "$id" ] || continue
    stem="${file%.*}"
    if [ -f "$stem.vtt" ] && [ -z "$(db "SELECT 1 FROM findText WHERE rowid = $id AND transcripts != ''")" ]; then
      bad+=" ${stem##*/}.vtt not indexed;"
    fi
  done < <(has_library && db "SELECT id, downloadedFile FROM episodes WHERE downloadedFile IS NOT NULL" 2>/dev/null)
  [ -z "$bad" ]
  check transcripts-indexed $? "$bad"
}
# Every download recorded done has its file, and it is the server's exact bytes.
check_done_records() {
  local bad="" url file
  while IFS='|' read -r url file; do
    [ -n "$url" ] || continue
    if [ ! -f "$file" ]; then
      bad+=" ${url##*/} recorded done, no file;"
    elif ! cmp -s "$file" "$(server_file "$url")"; then
      bad+=" ${url##*/} recorded done, file differs ($(zeros "$file") zero bytes);"
    fi
  done < <(has_library && db "SELECT url, file FROM downloads WHERE state = 'done'")
  [ -z "$bad" ]
  check done-has-file $? "$bad"
}
zeros() { tr -d '\000' <"$1" | wc -c | awk -v all="$(stat -c %s "$1")" '{ print all - $1 }'; }
# Right after the cut: every file under Episodes is one the uncut run has, byte-exact (a
# playlist or a page may list fewer episodes; it must be whole), or a temporary the next run
# removes.
check_nothing_torn() {
  local command="$1" bad="" pages="" size path
  while read -r size path; do
    [ -n "$path" ] || continue
    case "${path##*/}" in
    .podcast-*.tmp) continue ;;
    *.m3u8)
      head -n1 "$PODCAST_EPISODES_DIR/$path" | grep -q '^#EXTM3U' || bad+=" $path is not a whole playlist;"
      ;;
    index.html)
      pages+="$(page_problems "$path")"
      ;;
    *)
      if [ ! -f "$w/expected-$command-$lay/$path" ]; then
        bad+=" $path is foreign;"
      elif ! cmp -s "$PODCAST_EPISODES_DIR/$path" "$w/expected-$command-$lay/$path"; then
        bad+=" $path differs ($size bytes, $(zeros "$PODCAST_EPISODES_DIR/$path") zero);"
      fi
      ;;
    esac
  done < <(tree "$PODCAST_EPISODES_DIR")
  [ -z "$bad" ]
  check nothing-torn $? "$bad"
  [ -z "$pages" ]
  check page-whole $? "$pages"
}
# page_problems PATH: what is wrong with a page under Episodes (nothing when it is whole: from
# its doctype to its closing tag, every episode file it offers on disk).
page_problems() {
  local page="$PODCAST_EPISODES_DIR/$1" folder encoded file
  folder="$(dirname "$page")"
  head -c 15 "$page" | grep -q '^<!DOCTYPE html>' && [ "$(tail -c 8 "$page")" = "</html>" ] ||
    { echo " $1 is not a whole page;"; return; }
  while read -r encoded; do
    [ -n "$encoded" ] || continue
    printf -v file '%b' "${encoded//%/\\x}"
    [ -f "$folder/$file" ] || echo " $1 lists $file, not on disk;"
  done < <(grep -o ' data-file="[^"]*"' "$page" | sed 's/^ data-file="//; s/"$//')
}
check_after_recovery() {
  local command="$1" bad="" sides="" leftover="" actual done_count size path
  actual="$(tree "$PODCAST_EPISODES_DIR")"
  for spec in "${episodes[@]}"; do
    local n=${spec%:*} copies=0
    while read -r size path; do
      case "${path##*/}" in .podcast-*.tmp) continue ;; esac
      [ "$size" = "${spec#*:}" ] && cmp -s "$PODCAST_EPISODES_DIR/$path" "$w/srv/ep$n.mp3" && copies=$((copies + 1))
    done <<<"$actual"
    [ "$copies" = 1 ] || bad+=" ep$n.mp3 is there $copies times;"
  done
  done_count="$(db "SELECT count(*) FROM downloads WHERE state = 'done'")"
  [ "$done_count" = "${#episodes[@]}" ] || bad+=" $done_count downloads recorded done;"
  # Everything else as the uncut run left it: each file byte-exact, nothing more.
  while read -r size path; do
    [ -n "$path" ] || continue
    if [ ! -f "$w/expected-$command-$lay/$path" ]; then
      leftover+=" Episodes/$path ($size bytes);"
    elif ! cmp -s "$PODCAST_EPISODES_DIR/$path" "$w/expected-$command-$lay/$path"; then
      case "$path" in
      *.mp3) bad+=" $path differs ($size bytes, $(zeros "$PODCAST_EPISODES_DIR/$path") zero);" ;;
      *) sides+=" $path differs;" ;;
      esac
    fi
  done <<<"$actual"
  while read -r size path; do
    [ -f "$PODCAST_EPISODES_DIR/$path" ] && continue
    case "$path" in *.mp3) bad+=" $path missing;" ;; *) sides+=" $path missing;" ;; esac
  done < <(tree "$w/expected-$command-$lay")
  while read -r path; do
    [ -n "$path" ] || continue
    grep -qxF "$path" "$w/expected-state-$command-$lay" || leftover+=" .podcast/$path;"
  done < <(state_names)
  [ -z "$bad" ]
  check every-episode-once $? "$bad"
  [ -z "$sides" ]
  check side-files $? "$sides"
  [ -z "$leftover" ]
  check nothing-left-over $? "$leftover"
}
# The durable length of each unfinished download right after the cut (status --json's
# durableBytes; 0 when it has none), as "file durable" lines.
durable_lengths() {
  in_boot "$1" "$bin/podcast" status --json >"$w/status.json" 2>/dev/null || true
  sqlite3 :memory: "SELECT json_extract(value, '\$.url'), coalesce(json_extract(value, '\$.durableBytes'), 0)
    FROM json_each(readfile('$w/status.json')) WHERE json_extract(value, '\$.state') != 'done'" 2>/dev/null |
    while IFS='|' read -r url durable; do echo "${url##*/} $durable"; done
}
# The Range each resumed request of the recovery run started from: "file start" lines, from the
# server's log ("GET /ep2.mp3 206 BYTES-SENT").
resumes_since() {
  tail -n +"$(($1 + 1))" "$w/server.log" | awk '$1 == "GET" && $3 == 206 { print $2, $4 }' |
    while read -r target sent; do
      echo "${target#/} $(($(stat -c %s "$w/srv/${target#/}") - sent))"
    done
}

# --- the trials -----------------------------------------------------------------------------

kinds=(${POWERCUT_KINDS:-random midbody link wal partial staged side playlist torn})
for kind in "${kinds[@]}"; do kind_trials[$kind]=0 kind_triggered[$kind]=0 kind_clean[$kind]=0; done
reboots=0 reboots_clean=0 handed=0
failed_trials=0
resumed_any=0
mkdir -p "$w/failed"

# wait_cut PID: until LazyFS crashed (0: the fault hit) or the run ended (1).
wait_cut() {
  for _ in $(seq 24000); do
    fs_alive || return 0
    [ -e "/proc/$1" ] || return 1
    sleep 0.005
  done
  return 1
}
# Choices are drawn in this shell, never in a $(...) subshell, whose RANDOM is seeded anew:
# POWERCUT_SEED then repeats them all.
# random_seconds VAR MAX_MS: a random moment in [0, MAX_MS] ms, as seconds for sleep.
random_seconds() {
  local ms=$(((RANDOM * 32768 + RANDOM) % ($2 + 1)))
  printf -v "$1" '%d.%03d' $((ms / 1000)) $((ms % 1000))
}
# pick VAR OPTION...: one of the options.
pick() {
  local options=("${@:2}")
  printf -v "$1" '%s' "${options[RANDOM % ${#options[@]}]}"
}

for trial in $(seq 1 "$cuts"); do
  kind=${kinds[$(((trial - 1) % ${#kinds[@]}))]}
  pick command download sync
  pick lay one split
  case "$kind" in
  staged) lay=split ;;
  torn | midbody) command=download ;;
  esac
  # Every fourth: a period prime to the nine kinds, so every kind meets a reboot.
  reboot=$((trial % 4 == 0))
  boot_a="a$trial" boot_b="b$trial"
  trial_failures=()
  layout "$lay"
  prepare "$command" "$boot_a"
  mark=$(server_lines)
  # shellcheck disable=SC2046
  start_in_boot "$boot_a" "$w/cut.log" "$bin/podcast" $(run_args "$command")
  pid=$started
  detail="" triggered=1 cut_at_bytes=0
  case "$kind" in
  random)
    random_seconds moment "${wall[$command]}"
    sleep "$moment"
    detail="at a random moment"
    ;;
  midbody)
    cut_at_bytes=$(((12 * mib) + (RANDOM % (6 * mib / 4096)) * 4096))
    detail="once $((cut_at_bytes / 1024)) KiB of $big arrived"
    triggered=0
    for _ in $(seq 3000); do
      size=$(stat -c %s "$lib/.podcast/partial/$big_partial" 2>/dev/null || echo 0)
      if [ "$size" -ge "$cut_at_bytes" ]; then triggered=1 && break; fi
      [ -e "/proc/$pid" ] || break
      sleep 0.01
    done
    ;;
  torn)
    for _ in $(seq 3000); do
      [ -n "$(find "$PODCAST_EPISODES_DIR" -name '* Episode 1.mp3' 2>/dev/null)" ] && break
      [ -e "/proc/$pid" ] || break
      sleep 0.01
    done
    persist="1,$((2 + RANDOM % 11))"
    detail="torn-seq persist=$persist once $small was done"
    fault "lazyfs::torn-seq::op=write::file=$w/L/.podcast/partial/$big_partial::persist=$persist"
    wait_cut "$pid" || triggered=0
    ;;
  *)
    random_seconds moment $((${wall[$command]} * 8 / 10))
    sleep "$moment"
    pick timing before after
    # A link or rename fault matches its target (to_rgx); LazyFS then wants a from_rgx that does
    # not match the word "none" ("/" does not), or it asks the source path to contain "none".
    case "$kind" in
    link) what="op=link::from_rgx=/::to_rgx=Episodes/" ;;
    wal) what="op=fsync::from_rgx=library.sqlite-wal" ;;
    partial) what="op=fsync::from_rgx=/partial/" ;;
    staged) pick what "op=fsync::from_rgx=/\.podcast-.*\.part-" "op=link::from_rgx=/::to_rgx=Episodes/" ;;
    side) pick what "op=fsync::from_rgx=/\.podcast-side-" "op=rename::from_rgx=/::to_rgx=\.(vtt|json|png)$" ;;
    playlist) pick what "op=fsync::from_rgx=/\.podcast-playlist-" "op=rename::from_rgx=/::to_rgx=\.(m3u8|html)$" ;;
    esac
    detail="crash $timing ${what//::/ }"
    fault "lazyfs::crash::timing=$timing::$what"
    wait_cut "$pid" || triggered=0
    ;;
  esac
  # The cut: the run dies with the power, and whatever was not synced is gone.
  kill -9 "$pid" 2>/dev/null
  gone "$pid"
  fs_alive && fault "lazyfs::clear-cache"
  remount "$lay"

  # Right after the cut (a new boot).
  big_state=""
  has_library && big_state="$(db "SELECT state FROM downloads WHERE url = '$base/$big'")"
  check_integrity
  check_find_index
  check_done_records
  check_nothing_torn "$command"
  durable="$(durable_lengths "$boot_b")"

  # The reboot: whatever pids the dead run used now belong to live processes.
  if [ "$reboot" = 1 ]; then
    reboots=$((reboots + 1))
    for dead in $( (echo "$pid"; db "SELECT DISTINCT pid FROM downloads WHERE pid IS NOT NULL") | sort -u); do
      [ "$dead" -gt 1 ] 2>/dev/null && hand_pid "$dead" && handed=$((handed + 1))
    done
  fi

  mark=$(server_lines)
  # shellcheck disable=SC2046
  in_boot "$boot_b" timeout 300 "$bin/podcast" $(run_args "$command") >"$w/recovery.log" 2>&1
  status=$?
  check recovery-exit "$status" "exit $status: $(grep -v '^\s*$' "$w/recovery.log" | tail -n 3 | tr '\n' ' ')"
  check_integrity
  check_find_index
  check_transcripts_indexed
  check_after_recovery "$command"

  resumes="$(resumes_since "$mark")"
  if [ -n "$resumes" ]; then resumed_any=$((resumed_any + 1)); fi
  bad=""
  while read -r file start; do
    [ -n "$file" ] || continue
    allowed=$(awk -v f="$file" '$1 == f { print $2 }' <<<"$durable")
    [ "$start" -le "${allowed:-0}" ] || bad+=" $file resumed from $start, durable ${allowed:-0};"
  done <<<"$resumes"
  [ -z "$bad" ]
  check resume-from-durable $? "$bad"
  if [ "$kind" = midbody ] && [ "$triggered" = 1 ] && [ "$big_state" = done ]; then
    triggered=0
    detail+=", but it was done before the power went"
  fi
  if [ "$kind" = midbody ] && [ "$triggered" = 1 ]; then
    start=$(awk -v f="$big" '$1 == f { print $2 }' <<<"$resumes" | head -n1)
    [ "${start:-0}" -ge $((8 * mib)) ]
    check range-after-checkpoint $? "cut at $cut_at_bytes bytes, resumed from ${start:-0 (no Range)}"
  fi

  for dead in "${sleepers[@]}"; do kill -9 "$dead" 2>/dev/null; done
  sleepers=()
  kind_trials[$kind]=$((kind_trials[$kind] + 1))
  kind_triggered[$kind]=$((kind_triggered[$kind] + triggered))
  label="$kind $command $lay"
  [ "$reboot" = 1 ] && label+=" reboot"
  if [ ${#trial_failures[@]} = 0 ]; then
    kind_clean[$kind]=$((kind_clean[$kind] + 1))
    [ "$reboot" = 1 ] && reboots_clean=$((reboots_clean + 1))
    printf '%3d %-34s clean  (%s%s)\n' "$trial" "$label" "$detail" "$([ "$triggered" = 0 ] && echo ', not hit: the run ended first')"
  else
    failed_trials=$((failed_trials + 1))
    printf '%3d %-34s FAILED (%s)\n' "$trial" "$label" "$detail"
    for failure in "${trial_failures[@]}"; do echo "      $failure"; done
    # The runs' output of every failed trial; the library (~35 MB) of the first ten.
    mkdir -p "$w/failed/$trial"
    cp "$w/cut.log" "$w/recovery.log" "$w/failed/$trial/" 2>/dev/null
    if [ "$failed_trials" -le 10 ]; then
      unmount_fs
      cp -a "$w/L" "$w/failed/$trial/library" 2>/dev/null
    fi
  fi
  unmount_fs
done

# --- the tally ------------------------------------------------------------------------------

echo
echo "power cuts: $((cuts - failed_trials))/$cuts clean (seed $seed)"
printf '  %-10s %6s %8s %6s\n' "kind" "trials" "hit" "clean"
for kind in "${kinds[@]}"; do
  [ "${kind_trials[$kind]}" -gt 0 ] || continue
  printf '  %-10s %6s %8s %6s\n' "$kind" "${kind_trials[$kind]}" "${kind_triggered[$kind]}" "${kind_clean[$kind]}"
done
printf '  %-10s %6s %8s %6s   (pids handed to live processes: %s)\n' "reboot" "$reboots" "$reboots" "$reboots_clean" "$handed"
printf '  %-68s %7s %6s\n' "invariant" "checked" "failed"
for name in "${invariants[@]}"; do
  printf '  %-68s %7s %6s\n' "${inv_text[$name]}" "${inv_checked[$name]:-0}" "${inv_failed[$name]:-0}"
done
echo "  recovery runs that resumed a download with Range: $resumed_any of $cuts"
if [ "$failed_trials" -gt 0 ]; then
  keep=1
  exit 1
fi
