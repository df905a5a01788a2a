#!/usr/bin/env python3
"""The data of `make bench-wan`: one set of feeds, their newest episodes, an OPML file and
curl's configs for the same URLs.

    feeds.py --work DIR --set NAME --feeds N --bytes B

Writes
  DIR/www/feeds/NAME/fNNNN.xml (+ .xml.gz, which nginx serves to clients that take gzip)
      RSS 2.0 with the itunes namespace, 20 items, newest first; feed i is served by
      feeds{(i-1)%12+1}.test
  DIR/www/media/NAME/fNNNN/e20.mp3
      the newest item's enclosure: B random bytes, the first never 0xFF (so TagLib never takes
      it for an MPEG frame and scans the whole file); the older items' files do not exist, so a
      client that fetches one shows up as a 404 in nginx's log
  DIR/lists/NAME.opml                 every feed, for `podcast import`
  DIR/lists/NAME.cold.curl            curl -K: every feed (saving its ETag) and every newest episode
  DIR/lists/NAME.warm.curl            curl -K: every feed again, If-None-Match with the saved ETag

Every enclosure is listed at a tracker, https://track{(i-1)%3+1}.test/r/cdn{(i-1)%5+1}.test/PATH,
which nginx answers with a 302 to https://cdn{(i-1)%5+1}.test/PATH (the Podtrac or OP3 kind of
prefix redirect): two hosts, two TLS handshakes before the first byte of an episode. Every
enclosure's length attribute is exact for the file that exists. The text is random but seeded,
so two runs write the same feeds.
"""
import argparse
import email.utils
import gzip
import os
import random
import time

FEED_HOSTS, TRACKERS, CDNS, ITEMS = 12, 3, 5, 20
WORDS = (
    "the a of and to in is that it for on with as was at by this we you are be from or have an "
    "they which one had not but what all were when there can more if out so up about into "
    "episode interview guest host listener question answer story science history music culture "
    "technology software network archive library protocol release memory economy market policy "
    "climate energy ocean forest city river mountain travel kitchen coffee garden football chess "
    "novel poetry film theatre museum festival research theory evidence café naïve über façade"
).split()
PEOPLE = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Katherine Johnson", "Radia Perlman",
          "José Martínez", "Zoë Müller", "Chloé Dubois"]


def esc(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def sentence(rng, low=6, high=18):
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize() + rng.choice(".!?.")


def notes(rng):
    """Show notes as podcasts write them: a few HTML paragraphs and sometimes a list of links."""
    parts = []
    for _ in range(rng.randint(2, 6)):
        parts.append("<p>" + " ".join(sentence(rng) for _ in range(rng.randint(2, 5))) + "</p>")
        if rng.random() < 0.3:
            links = "".join('<li><a href="https://example.org/%d">%s</a></li>' % (rng.randint(1, 99999), sentence(rng, 2, 5))
                            for _ in range(rng.randint(2, 4)))
            parts.append("<ul>" + links + "</ul>")
    return "".join(parts)


def feed(rng, name, i, host, newest, enclosure, size):
    title = "WAN Show %d: %s" % (i, sentence(rng, 2, 4).rstrip(".!?"))
    author = rng.choice(PEOPLE)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n'
           '<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">\n<channel>\n'
           '<title>%s</title>\n<link>https://%s/</link>\n<description>%s</description>\n'
           '<language>en-us</language>\n<lastBuildDate>%s</lastBuildDate>\n'
           '<itunes:author>%s</itunes:author>\n<itunes:type>episodic</itunes:type>\n'
           '<itunes:category text="Technology"/>\n<itunes:explicit>false</itunes:explicit>\n'
           % (esc(title), host, esc(sentence(rng, 15, 30)), email.utils.formatdate(newest, usegmt=True),
              esc(author))]
    for k in range(ITEMS):
        number = ITEMS - k
        seconds = rng.randint(900, 5400)
        out.append(
            '<item>\n<title>%s</title>\n<guid isPermaLink="false">%s-f%04d-e%d</guid>\n'
            '<pubDate>%s</pubDate>\n<description><![CDATA[%s]]></description>\n'
            '<itunes:author>%s</itunes:author>\n<itunes:duration>%d:%02d:%02d</itunes:duration>\n'
            '<itunes:episode>%d</itunes:episode>\n<itunes:episodeType>full</itunes:episodeType>\n'
            '<enclosure url="%s" length="%d" type="audio/mpeg"/>\n</item>\n'
            % (esc("Episode %d: %s" % (number, sentence(rng, 3, 7).rstrip(".!?"))), name, i, number,
               email.utils.formatdate(newest - k * 7 * 86400, usegmt=True), notes(rng), esc(author),
               seconds // 3600, seconds % 3600 // 60, seconds % 60, number,
               esc(enclosure(number)), size if k == 0 else rng.randint(20, 90) * 1000000))
    out.append("</channel>\n</rss>\n")
    return "".join(out).encode()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", required=True)
    parser.add_argument("--set", required=True)
    parser.add_argument("--feeds", type=int, required=True)
    parser.add_argument("--bytes", type=int, required=True)
    args = parser.parse_args()
    name, work = args.set, args.work
    lists = os.path.join(work, "lists")
    feeds_dir = os.path.join(work, "www", "feeds", name)
    curl_dir = os.path.join(work, "run", "curl", name)
    cacert = os.path.join(work, "pki", "bundle.crt")
    os.makedirs(lists, exist_ok=True)
    os.makedirs(feeds_dir, exist_ok=True)
    newest = int(time.time()) - 7200
    outlines, cold_feeds, cold_episodes, warm = [], [], [], []
    for i in range(1, args.feeds + 1):
        rng = random.Random("%s/%d" % (name, i))
        host = "feeds%d.test" % ((i - 1) % FEED_HOSTS + 1)
        tracker = "track%d.test" % ((i - 1) % TRACKERS + 1)
        cdn = "cdn%d.test" % ((i - 1) % CDNS + 1)
        url = "https://%s/%s/f%04d.xml" % (host, name, i)
        path = lambda number: "%s/f%04d/e%d.mp3" % (name, i, number)
        enclosure = lambda number: "https://%s/r/%s/%s" % (tracker, cdn, path(number))
        body = feed(rng, name, i, host, newest, enclosure, args.bytes)
        target = os.path.join(feeds_dir, "f%04d.xml" % i)
        with open(target, "wb") as f:
            f.write(body)
        with open(target + ".gz", "wb") as f:
            f.write(gzip.compress(body, 6, mtime=0))
        media = os.path.join(work, "www", "media", path(ITEMS))
        os.makedirs(os.path.dirname(media), exist_ok=True)
        data = bytearray(os.urandom(args.bytes))
        while data[0] == 0xFF:
            data[0] = os.urandom(1)[0]
        with open(media, "wb") as f:
            f.write(data)
        outlines.append('<outline type="rss" text="WAN Show %d" xmlUrl="%s"/>' % (i, url))
        saved = "%s/f%04d" % (curl_dir, i)
        common = 'cacert = "%s"\n' % cacert
        cold_feeds.append('url = "%s"\noutput = "%s.xml"\ncompressed\netag-save = "%s.etag"\n%s' % (url, saved, saved, common))
        cold_episodes.append('url = "%s"\noutput = "%s.mp3"\nlocation\n%s' % (enclosure(ITEMS), saved, common))
        warm.append('url = "%s"\noutput = "/dev/null"\ncompressed\netag-compare = "%s.etag"\n%s' % (url, saved, common))
    with open(os.path.join(lists, name + ".opml"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<opml version="2.0"><head><title>%s</title></head><body>\n%s\n</body></opml>\n'
                % (name, "\n".join(outlines)))
    # One curl operation per URL ("next" between them), since the ETag file is per operation;
    # the feeds first, then the episodes, with nothing making an episode wait for its feed:
    # the floor a client that must read a feed before its episode cannot reach.
    with open(os.path.join(lists, name + ".cold.curl"), "w") as f:
        f.write("next\n".join(cold_feeds + cold_episodes))
    with open(os.path.join(lists, name + ".warm.curl"), "w") as f:
        f.write("next\n".join(warm))


if __name__ == "__main__":
    main()
