#!/usr/bin/env bash
# make demo: the whole path, offline. Serves Demo/feed.xml (with generated audio) and a canned
# iTunes API answer from the project's loopback test server, then runs podcast against them.
set -euo pipefail
bin="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.demo"
rm -rf "$work"
mkdir -p "$work/audio" "$work/api"

# Each file's size matches its <enclosure length> in Demo/feed.xml (44 + 8000 bytes a second).
for spec in 1:2 3:6 4:3 5:4 6:7 7:5; do # episode:seconds
  "$bin/podcast-testserver" generate-audio --out "$work/audio/episode-${spec%:*}.wav" --seconds "${spec#*:}"
done
# The newest episode is an MP3 (ffmpeg comes with `make deps`): TagLib writes no WAV tags, so
# this is the one that shows the feed's tags in the file. 64 kbit/s mono, about its <enclosure length>.
ffmpeg -v error -y -f lavfi -i "sine=frequency=330:duration=6" -ac 1 -c:a libmp3lame -b:a 64k \
  "$work/audio/episode-8.mp3"

# Throttled so the progress bars have something to show.
"$bin/podcast-testserver" serve --root "$root/Demo" --mount "/audio=$work/audio" --mount "/api=$work/api" \
  --rate 24000 >"$work/url" 2>"$work/server.log" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -s "$work/url" ] && break; sleep 0.05; done
base="$(head -n1 "$work/url")"

for endpoint in search lookup; do
  sed "s|{{base}}|$base|g" "$root/Demo/itunes-$endpoint.json" >"$work/api/$endpoint"
done

export PODCAST_LIBRARY="$work/library"
export PODCAST_ITUNES_URL="$base/api"
# Offline whatever the user's settings: no Podcast Index key (it would add a real directory
# to the search) and no config file.
unset PODCAST_INDEX_KEY PODCAST_INDEX_SECRET
export XDG_CONFIG_HOME="$work/config"
podcast() { "$bin/podcast" "$@"; }
step() { printf '\n\033[1m$ podcast %s\033[0m\n' "$*"; }

step search small hours
podcast search small hours
step episodes itunes:1000000042
podcast episodes itunes:1000000042
step download "$base/feed.xml" 1-2
podcast download "$base/feed.xml" 1-2
printf '\nThe tags podcast wrote into the newest episode, as ffprobe reads them:\n'
newest="$(find "$PODCAST_LIBRARY/Episodes" -name '*.mp3' | head -n1)"
ffprobe -v error -show_entries format_tags -of default=noprint_wrappers=1 "$newest" | sed 's/^TAG:/  /'
printf "\nIts transcript (the feed's <podcast:transcript>), kept beside it as %s:\n" \
  "$(basename "${newest%.mp3}.vtt")"
sed 's/^/  /' "${newest%.mp3}.vtt"
folder="$(dirname "$newest")"
printf "\nThe podcast folder's playlist, newest first (%s):\n" "${folder##*/}/${folder##*/}.m3u8"
sed 's/^/  /' "$folder/${folder##*/}.m3u8"
step episodes "$base/feed.xml" --limit 3
podcast episodes "$base/feed.xml" --limit 3
step subscribe "$base/feed.xml" --keep 3
podcast subscribe "$base/feed.xml" --keep 3
step sync
podcast sync
step sync "(nothing changed: one 304)"
podcast sync
step status
podcast status

printf '\nWhat the server was asked for the newest episode (its feed link has three query parameters):\n'
grep -m1 '^GET /audio/episode-8.mp3' "$work/server.log" | sed 's/^/  /'

printf '\nFiles under %s:\n' "$PODCAST_LIBRARY/Episodes"
find "$PODCAST_LIBRARY/Episodes" -type f | sort | sed "s|$PODCAST_LIBRARY/Episodes/|  |"
printf '\nThe demo library stays in %s; remove it with make clean.\n' "$work"
printf 'This was the debug build at %s/podcast.\n' "$bin"
printf 'To put podcast on your PATH: sudo make install (or: PREFIX=~/.local make install).\n'

