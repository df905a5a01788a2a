#!/usr/bin/env bash
# make bench-wan (and the last section of make bench): podcast against curl on an emulated
# internet that this script builds and tears down:
#   - a network namespace of its own, whose loopback holds every packet WAN_RTT_MS/2 (default
#     40 ms) on its way in: iptables sends each packet arriving on lo to NFQUEUE, where
#     Scripts/wan/delay.c (built here with cc) accepts it after the delay. This kernel has no
#     netem. Every packet crosses lo once, so a round trip costs WAN_RTT_MS. lo's MTU is 1500,
#     so TCP's slow start grows in the segments of a real path.
#   - nginx serving HTTPS with HTTP/2 under 20 names (feeds1-12.test, track1-3.test,
#     cdn1-5.test) from the namespace's own hosts file (/etc/netns/NAME/hosts), with a
#     certificate from a CA made for this run; the namespace's /etc/ssl (/etc/netns/NAME/ssl)
#     is the system's bundle plus that CA, so podcast's libcurl and curl trust it there only
#     (curl also gets it with --cacert). podcast sets no CA file and Debian's libcurl reads
#     neither CURL_CA_BUNDLE nor SSL_CERT_FILE (only the curl tool does), so the environment
#     cannot carry it; nothing is added to the system's store.
#   - generated feeds (Scripts/wan/feeds.py): WAN_FEEDS (200) feeds of 20 items whose newest
#     episode (WAN_EPISODE_BYTES, 1 MiB) is behind a tracker's 302 to a CDN host, and
#     WAN_WARM_FEEDS (1000) feeds with WAN_WARM_EPISODE_BYTES (8 KiB) episodes.
# It prints, median of WAN_ROUNDS (default BENCH_ROUNDS, else 5) with podcast and curl taking
# turns: cold (import + first sync) and warm (sync again, every feed 304) at WAN_FEEDS, warm at
# WAN_WARM_FEEDS, for podcast with its default settings and for `curl --parallel --parallel-max
# 16` fetching the same URLs (conditionally, with the ETags it saved, when warm), with the
# connections each opened and their TLS handshakes (full or resumed) and protocols, counted in
# nginx's access log.
#
# Root is needed for the namespace, the iptables rule and the packet queue (and nginx's port
# 443 in the namespace); podcast, curl and the data generator run as an unprivileged user
# (SUDO_USER, else nobody). Without root, or without ip netns, nginx, iptables,
# libnetfilter-queue-dev or cc, it prints one line saying why it was skipped and exits 0.
# Everything is removed on exit: nginx and the delay program stopped, the namespace and its
# /etc/netns files deleted, the temporary directory removed.
#
#   bash Scripts/bench-wan.sh BIN_DIR         (BIN_DIR holds the podcast binary)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
title="6. An emulated internet (WAN)"

# ---------------------------------------------------------------- inside the namespace
# Runs as the unprivileged user, inside the namespace: makes the data and times the tools.
inside() {
  local bin="$1" work="$2"
  local rounds="$WAN_ROUNDS" feeds="$WAN_FEEDS" warmfeeds="$WAN_WARM_FEEDS"
  local parallel="$WAN_PARALLEL" runs="$work/run" log="$work/nginx/access.log"
  local cold="s$WAN_FEEDS" warm="w$WAN_WARM_FEEDS"
  umask 022
  python3 "$here/wan/feeds.py" --work "$work" --set "$cold" --feeds "$feeds" --bytes "$WAN_EPISODE_BYTES"
  python3 "$here/wan/feeds.py" --work "$work" --set "$warm" --feeds "$warmfeeds" --bytes "$WAN_WARM_EPISODE_BYTES"
  local ca="$work/pki/bundle.crt"
  echo "  round trip: $(for _ in 1 2 3; do curl -q -sS -o /dev/null --cacert "$ca" -w '%{time_connect} ' https://feeds1.test/"$cold"/f0001.xml; done)s (curl's TCP connect to feeds1.test, three times)"
  echo "  $(curl -q -sS -o /dev/null --cacert "$ca" -w '%{http_version} %{ssl_verify_result}' https://cdn1.test/"$cold"/f0001/e20.mp3 | awk '{ printf "HTTP/%s, certificate %s", $1, ($2 == 0 ? "verified" : "NOT verified") }') against the run's own CA"

  # measure NAME CHECK COMMAND...: one timed run appended to $runs/NAME.runs as
  #   wall cpu rssMB connections full-handshakes resumed h2-connections requests 200s 304s 302s
  #   other-statuses exit-status check
  # where the connections and statuses are those of nginx's access log lines the run added, and
  # CHECK is a command whose output (a count of the files the run produced) ends the line.
  measure() {
    local name="$1" check="$2" start end status=0 offset
    shift 2
    sync
    offset=$(stat -c %s "$log")
    start=$EPOCHREALTIME
    /usr/bin/time -f "%U %S %M" -o "$runs/$name.time" "$@" >"$runs/$name.out" 2>"$runs/$name.err" || status=$?
    end=$EPOCHREALTIME
    tail -c +$((offset + 1)) "$log" >"$runs/$name.log"
    local stats
    stats=$(awk '
      !($2 in seen) { seen[$2] = 1; conns++; if ($4 == "r") resumed++; else full++; if ($6 == "HTTP/2.0") h2++ }
      { requests++; if ($8 == 200) ok++; else if ($8 == 304) same++; else if ($8 == 302) moved++; else other++ }
      END { printf "%d %d %d %d %d %d %d %d %d", conns, full, resumed, h2, requests, ok, same, moved, other }' "$runs/$name.log")
    # (time(1) puts "Command exited with non-zero status N" before its line when the command fails)
    echo "$(tail -n 1 "$runs/$name.time" | awk -v s="$start" -v e="$end" '{ printf "%.3f %.2f %.0f", e - s, $1 + $2, $3 / 1024 }') $stats $status $($check)" >>"$runs/$name.runs"
  }
  median() { sort -n "$runs/$1.runs" | awk '{ line[NR] = $0 } END { print line[int((NR + 1) / 2)] }'; }
  field() { median "$1" | awk -v n="$2" '{ print $n }'; }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
  row() { # row LABEL NAME: the median run, then every run's wall time
    median "$2" | awk -v label="$1" -v walls="$(awk '{ printf "%s%s", sep, $1; sep = " " }' "$runs/$2.runs")" '{
      printf "  %-40s %6.2f s wall %5.2f s cpu %4d MB  %3d conns (%d HTTP/2), TLS %d full + %d resumed; %d requests (%d 200, %d 304, %d 302, %d other)%s  (walls: %s)\n",
        label, $1, $2, $3, $4, $7, $5, $6, $8, $9, $10, $11, $12, ($13 != 0 ? "  EXIT STATUS " $13 : ""), walls }'
  }

  local podcast="$bin/podcast" curlcmd=(curl -q -sS --parallel --parallel-max "$parallel")
  episodes() { find "$runs/lib" -path '*/Episodes/*' -name '*.mp3' -type f 2>/dev/null | wc -l; }
  curlfiles() { find "$runs/curl" -name '*.mp3' -size "${1}c" | wc -l; }
  none() { echo 0; }
  podcast_cold() { # podcast_cold NAME SET
    rm -rf "$runs/lib"
    measure "$1" episodes sh -c '"$1" import "$2" --library "$3" >/dev/null && "$1" sync --quiet --library "$3"' sh \
      "$podcast" "$work/lists/$2.opml" "$runs/lib"
  }
  curl_cold() { # curl_cold NAME SET BYTES
    rm -rf "$runs/curl" && mkdir -p "$runs/curl/$2"
    measure "$1" "curlfiles $3" "${curlcmd[@]}" -K "$work/lists/$2.cold.curl"
  }

  echo "  $feeds feeds of 20 items, newest episode $WAN_EPISODE_BYTES bytes behind a tracker 302 (running $rounds rounds)"
  for round in $(seq "$rounds"); do
    for tool in $(if [ $((round % 2)) = 1 ]; then echo podcast curl; else echo curl podcast; fi); do
      if [ "$tool" = podcast ]; then
        podcast_cold pcold "$cold"
        measure pwarm none "$podcast" sync --quiet --library "$runs/lib"
      else
        curl_cold ccold "$cold" "$WAN_EPISODE_BYTES"
        measure cwarm none "${curlcmd[@]}" -K "$work/lists/$cold.warm.curl"
      fi
    done
  done
  rm -rf "$runs/lib" "$runs/curl"
  row "curl, cold: feeds + episodes" ccold
  row "podcast import + first sync (cold)" pcold
  row "curl, warm: feeds, If-None-Match" cwarm
  row "podcast sync again (warm)" pwarm
  echo "    podcast/curl: cold $(ratio "$(field pcold 1)" "$(field ccold 1)")x, warm $(ratio "$(field pwarm 1)" "$(field cwarm 1)")x; connections $(field pcold 4)/$(field ccold 4) cold, $(field pwarm 4)/$(field cwarm 4) warm; episode files after a cold run: podcast $(field pcold 14), curl $(field ccold 14) of $feeds"

  echo "  $warmfeeds feeds, episodes of $WAN_WARM_EPISODE_BYTES bytes: one cold run each, then $rounds warm rounds"
  # podcast's library and curl's ETags from the cold runs stay for the warm rounds.
  podcast_cold p1cold "$warm"
  rm -rf "$runs/curl" && mkdir -p "$runs/curl/$warm"
  measure c1cold "curlfiles $WAN_WARM_EPISODE_BYTES" "${curlcmd[@]}" -K "$work/lists/$warm.cold.curl"
  for round in $(seq "$rounds"); do
    for tool in $(if [ $((round % 2)) = 1 ]; then echo podcast curl; else echo curl podcast; fi); do
      if [ "$tool" = podcast ]; then
        measure p1warm none "$podcast" sync --quiet --library "$runs/lib"
      else
        measure c1warm none "${curlcmd[@]}" -K "$work/lists/$warm.warm.curl"
      fi
    done
  done
  row "curl, cold (one run)" c1cold
  row "podcast import + first sync (one run)" p1cold
  row "curl, warm: feeds, If-None-Match" c1warm
  row "podcast sync again (warm)" p1warm
  echo "    podcast/curl: warm $(ratio "$(field p1warm 1)" "$(field c1warm 1)")x (cold, one run: $(ratio "$(field p1cold 1)" "$(field c1cold 1)")x); connections $(field p1warm 4)/$(field c1warm 4) warm; episode files after the cold run: podcast $(field p1cold 14), curl $(field c1cold 14) of $warmfeeds"
}

if [ "${1:-}" = --inside ]; then
  shift
  inside "$@"
  exit
fi

# ---------------------------------------------------------------- set-up, as root
bin="$1"
skip() {
  echo "$title: skipped: $*"
  exit 0
}
[ "$(id -u)" = 0 ] || skip "needs root for the network namespace and the packet queue (sudo make bench-wan)"
for tool in ip nginx cc python3 openssl curl setpriv; do
  command -v "$tool" >/dev/null || PATH="$PATH:/usr/sbin:/sbin" command -v "$tool" >/dev/null ||
    skip "no $tool (make bench-wan installs nginx, iptables, libnetfilter-queue-dev and openssl)"
done
export PATH="$PATH:/usr/sbin:/sbin"
iptables=$(command -v iptables-legacy || command -v iptables || true)
[ -n "$iptables" ] || skip "no iptables (make bench-wan installs it)"
[ -e /usr/include/libnetfilter_queue/libnetfilter_queue.h ] || skip "no libnetfilter-queue-dev (make bench-wan installs it)"
[ -x /usr/bin/time ] || skip "no /usr/bin/time"
[ -x "$bin/podcast" ] || skip "no $bin/podcast"

load=$(cut -d' ' -f1 /proc/loadavg)
export WAN_FEEDS="${WAN_FEEDS:-200}" WAN_WARM_FEEDS="${WAN_WARM_FEEDS:-1000}"
export WAN_ROUNDS="${WAN_ROUNDS:-${BENCH_ROUNDS:-5}}" WAN_RTT_MS="${WAN_RTT_MS:-80}" WAN_PARALLEL="${WAN_PARALLEL:-16}"
export WAN_EPISODE_BYTES="${WAN_EPISODE_BYTES:-1048576}" WAN_WARM_EPISODE_BYTES="${WAN_WARM_EPISODE_BYTES:-8192}"
ns="podcast-wan-$$"
[ ! -e "/etc/netns/$ns" ] || skip "/etc/netns/$ns exists already"
work=$(mktemp -d "${TMPDIR:-/tmp}/podcast-wan.XXXXXX")
chmod 755 "$work"
delay_pid=""
inner_pid=""
made_ns=""
cleanup() {
  set +e
  local pid
  # The measurements run in a process group of their own (interrupted, podcast or curl with it)
  if [ -n "$inner_pid" ] && kill -0 "$inner_pid" 2>/dev/null; then
    kill -TERM -- "-$inner_pid" 2>/dev/null
    wait "$inner_pid" 2>/dev/null
  fi
  if [ -s "$work/nginx/nginx.pid" ]; then
    pid=$(cat "$work/nginx/nginx.pid")
    kill -QUIT "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -TERM "$pid"
  fi
  if [ -n "$delay_pid" ]; then
    kill -TERM "$delay_pid" 2>/dev/null
    wait "$delay_pid" 2>/dev/null
  fi
  if [ -n "$made_ns" ]; then
    left=$(ip netns pids "$ns" 2>/dev/null)
    [ -z "$left" ] || echo "  still in namespace $ns (left running): $left" >&2
    ip netns del "$ns"
  fi
  rm -rf "/etc/netns/$ns" "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

err="$work/setup.err"
ip netns add "$ns" 2>"$err" || skip "ip netns add failed: $(head -1 "$err")"
made_ns=1
ip -n "$ns" link set lo mtu 1500 up
cc -O2 -o "$work/delay" "$here/wan/delay.c" -lnetfilter_queue -lnfnetlink 2>"$err" ||
  skip "Scripts/wan/delay.c did not build: $(head -1 "$err")"
# The emulated network must not wait for the CPU behind compilers: the delay program runs at a
# real-time priority (it sleeps between packets, and the kernel caps real-time tasks at 95% of
# a CPU), else at nice -10, and reports the verdicts it gave late.
priority=(nice -n -10)
! chrt -f 10 true 2>/dev/null || priority=(chrt -f 10)
ip netns exec "$ns" "${priority[@]}" "$work/delay" 0 $((WAN_RTT_MS * 500)) 2>"$work/delay.log" &
delay_pid=$!
for _ in $(seq 50); do grep -q '^delay: queue' "$work/delay.log" 2>/dev/null && break; sleep 0.1; done
kill -0 "$delay_pid" 2>/dev/null && grep -q '^delay: queue' "$work/delay.log" ||
  skip "the delay program did not start: $(head -1 "$work/delay.log")"
ip netns exec "$ns" "$iptables" -t mangle -A PREROUTING -i lo -j NFQUEUE --queue-num 0 2>"$err" ||
  skip "$iptables cannot queue packets here: $(head -1 "$err")"

# A CA for this run, and one certificate for every name.
hosts=""
for n in $(seq 12); do hosts+=" feeds$n.test"; done
for n in $(seq 3); do hosts+=" track$n.test"; done
for n in $(seq 5); do hosts+=" cdn$n.test"; done
pki="$work/pki"
mkdir -p "$pki"
{
  openssl ecparam -name prime256v1 -genkey -noout -out "$pki/ca.key"
  openssl req -x509 -new -key "$pki/ca.key" -sha256 -days 2 -subj "/CN=podcast bench-wan CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" -out "$pki/ca.crt"
  openssl ecparam -name prime256v1 -genkey -noout -out "$pki/server.key"
  openssl req -new -key "$pki/server.key" -subj "/CN=feeds1.test" -out "$pki/server.csr"
  printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\n' "$(printf 'DNS:%s,' $hosts | sed 's/,$//')" >"$pki/ext.cnf"
  openssl x509 -req -in "$pki/server.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" \
    -CAcreateserial -days 2 -sha256 -extfile "$pki/ext.cnf" -out "$pki/server.crt"
} >/dev/null 2>"$err" || skip "openssl could not make the certificates: $(head -1 "$err")"
cat /etc/ssl/certs/ca-certificates.crt "$pki/ca.crt" >"$pki/bundle.crt"
chmod 644 "$pki/bundle.crt"

# What `ip netns exec` mounts over /etc for this namespace only: the names, a resolver that
# answers nothing (a stray DNS query stays on this loopback), and /etc/ssl with the CA added.
mkdir -p "/etc/netns/$ns/ssl/certs"
echo "127.0.0.1 localhost$hosts" >"/etc/netns/$ns/hosts"
printf 'nameserver 127.0.0.1\noptions timeout:1 attempts:1\n' >"/etc/netns/$ns/resolv.conf"
[ ! -e /etc/ssl/openssl.cnf ] || cp /etc/ssl/openssl.cnf "/etc/netns/$ns/ssl/"
cp "$pki/bundle.crt" "/etc/netns/$ns/ssl/certs/ca-certificates.crt"

mkdir -p "$work/nginx"
sed "s|@WORK@|$work|g" "$here/wan/nginx.conf" >"$work/nginx/nginx.conf"
touch "$work/nginx/access.log"
chmod 644 "$work/nginx/access.log"
ip netns exec "$ns" nginx -q -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" 2>"$err" ||
  skip "nginx did not start: $(head -1 "$err")"

# The tools and the data generator run unprivileged when the user can run the binary.
user="${SUDO_USER:-nobody}"
[ "$user" != root ] || user=nobody
uid=$(id -u "$user") gid=$(id -g "$user")
as=(setpriv --reuid="$uid" --regid="$gid" --clear-groups)
if ! "${as[@]}" test -x "$bin/podcast"; then
  as=()
  user=root
fi
mkdir -p "$work/www" "$work/lists" "$work/run" "$work/home"
chown "$uid:$gid" "$work/www" "$work/lists" "$work/run" "$work/home"


echo "$title: ${WAN_RTT_MS} ms round trip (NFQUEUE delay on the namespace's lo), HTTPS + HTTP/2 (nginx $(nginx -v 2>&1 | sed 's|.*/||')), 20 host names; $(curl --version | head -1 | cut -d' ' -f1-2) --parallel-max $WAN_PARALLEL; median of $WAN_ROUNDS rounds, the two taking turns; as $user"
# In the background, so that a signal reaches this script's trap at once (bash runs a trap only
# when the command it waits for ends; `wait` ends at the signal), in its own process group.
setsid ip netns exec "$ns" "${as[@]}" env -i PATH="$PATH" HOME="$work/home" LANG=C.UTF-8 \
  WAN_ROUNDS="$WAN_ROUNDS" WAN_FEEDS="$WAN_FEEDS" WAN_WARM_FEEDS="$WAN_WARM_FEEDS" WAN_PARALLEL="$WAN_PARALLEL" \
  WAN_EPISODE_BYTES="$WAN_EPISODE_BYTES" WAN_WARM_EPISODE_BYTES="$WAN_WARM_EPISODE_BYTES" \
  bash "$here/bench-wan.sh" --inside "$bin" "$work" &
inner_pid=$!
wait "$inner_pid"

kill -USR1 "$delay_pid"
sleep 0.3
tail -1 "$work/delay.log" | awk '{
  for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
  printf "  the delay program: %d packets, at most %d held at once; %d verdicts more than 1 ms late (the worst %.1f ms), %d passed undelayed\n",
    v["packets"], v["held_max"], v["late_1ms"], v["late_max_us"] / 1000, v["overflow"] }'
echo "  (the WAN section took $SECONDS s, set-up and data included; load average $load at the start, $(cut -d' ' -f1 /proc/loadavg) at the end, on $(nproc) cores)"
