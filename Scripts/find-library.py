#!/usr/bin/env python3
"""The feeds `make bench` syncs and searches (Scripts/bench.sh, section 7): FEEDS feeds of
EPISODES episodes each, every episode with NOTES words of show notes (120 words are about 1 kB),
the newest episode of the first TRANSCRIBED feeds with a one-hour WebVTT transcript (about 9,000
words). Words are drawn from a made-up vocabulary with Zipf's law, as the words of a language
are, so the index's postings have the lengths real text gives them: a few words in every
episode, most in a handful. The same seed gives the same feeds.

  find-library.py OUT PREFIX FEEDS EPISODES DOWNLOADED TRANSCRIBED NOTES BYTES

writes OUT/feed-NNNNN.xml (enclosures and transcripts under {{base}}/PREFIX/, for
podcast-testserver serving OUT at /PREFIX), OUT/ep.mp3 (BYTES bytes), OUT/t-NNNNN.vtt,
OUT/library.opml (feed URLs under BASE/PREFIX/, for the caller to fill in; the first DOWNLOADED
feeds' first sync takes their newest episode, the others' none) and OUT/query (two words of
middling frequency: the query the bench times; the transcripts also say "the voyager probes
carry a golden record" once each, 41:12 in).
"""
import itertools
import os
import random
import sys

out, prefix = sys.argv[1], sys.argv[2]
feeds, episodes, downloaded, transcribed, notes_words, audio_bytes = map(int, sys.argv[3:9])
random.seed(40)
syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "de", "po", "an", "el", "or", "us",
             "im", "ba", "ce", "fo", "gu", "hi", "ja", "ke", "ly", "mo", "nu", "pe", "qui", "ra"]
vocabulary = set()
while len(vocabulary) < 40000:
    vocabulary.add("".join(random.choice(syllables) for _ in range(random.randint(1, 4))))
vocabulary = sorted(vocabulary, key=lambda w: (len(w), w))
random.shuffle(vocabulary)
weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(vocabulary))))


def words(count):
    return random.choices(vocabulary, cum_weights=weights, k=count)


def sentences(count):
    if count == 0:
        return ""
    text = words(count)
    for index in range(0, len(text), 12):
        text[index] = text[index].capitalize()
        if index:
            text[index - 1] += "."
    return " ".join(text) + "."


folder = out
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, "ep.mp3"), "wb") as audio:
    # No MPEG frame header at the start: TagLib would scan the whole body.
    audio.write(b"N" + os.urandom(audio_bytes - 1))
with open(os.path.join(out, "query"), "w") as query:
    query.write(f"{vocabulary[150]} {vocabulary[700]}\n")

opml = ['<?xml version="1.0"?><opml version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">'
        '<head><title>find bench</title></head><body>']
for feed in range(1, feeds + 1):
    name = f"{feed:05d}"
    items = []
    for episode in range(episodes, 0, -1):
        day = 1 + (episode * 7) % 28
        month = 1 + (episode // 4) % 12
        extra = ""
        if feed <= transcribed and episode == episodes:
            extra = f'<podcast:transcript url="{{{{base}}}}/{prefix}/t-{name}.vtt" type="text/vtt"/>'
            cues = ["WEBVTT", ""]
            for cue in range(900):
                start, end = cue * 4, cue * 4 + 3.9
                cues.append(f"{start // 3600:02d}:{start % 3600 // 60:02d}:{start % 60:02d}.000 --> "
                            f"{int(end) // 3600:02d}:{int(end) % 3600 // 60:02d}:{end % 60:06.3f}")
                # One cue in each transcript says what no notes say: the bench's query for
                # moments in transcripts (41:12, as the README's example).
                cues.append(" ".join(words(10)) if cue != 618 else "the voyager probes carry a golden record")
                cues.append("")
            with open(os.path.join(folder, f"t-{name}.vtt"), "w") as transcript:
                transcript.write("\n".join(cues))
        half = notes_words // 2
        notes = "<p>" + sentences(half) + "</p><p>" + sentences(notes_words - half) + "</p>" if notes_words else ""
        items.append(
            f"<item><title>{' '.join(words(random.randint(3, 7))).capitalize()}</title>"
            f"<guid>{name}-{episode}</guid>"
            f"<pubDate>Mon, {day:02d} {['Jan','Feb','Mar','Apr','May','Jun','Jul','Aug','Sep','Oct','Nov','Dec'][month - 1]} 2024 10:00:00 +0000</pubDate>"
            f"<description><![CDATA[{notes}]]></description>"
            f'<enclosure url="{{{{base}}}}/{prefix}/ep.mp3?f={name}&amp;e={episode}" length="{audio_bytes}" type="audio/mpeg"/>'
            f"{extra}</item>")
    with open(os.path.join(folder, f"feed-{name}.xml"), "w") as xml:
        xml.write('<?xml version="1.0"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0">'
                  f"<channel><title>Show {name}</title>\n" + "\n".join(items) + "\n</channel></rss>\n")
    first = "1" if feed <= downloaded else "none"
    opml.append(f'<outline type="rss" text="Show {name}" xmlUrl="BASE/{prefix}/feed-{name}.xml" podcast:first="{first}"/>')
opml.append("</body></opml>")
with open(os.path.join(out, "library.opml"), "w") as listing:
    listing.write("\n".join(opml) + "\n")
