/// The stylesheet, script and icon every archive page shares (`podcast-page.css`,
/// `podcast-page.js`, `podcast-page.svg`), written once per Episodes directory beside
/// `index.html`. They are
/// files, not inline: each page's Content-Security-Policy allows scripts and styles from its
/// own origin only, so nothing a feed smuggled into a page could run even if it got past
/// `ShowNotesHTML`.
///
/// The script works under `file://` too (no request of its own: transcripts come from the cues
/// embedded in the page), and drives one shared `<audio>` for the whole page: a podcast with
/// 2,000 episodes on disk gets 2,000 buttons, not 2,000 media elements, which took seconds to
/// lay out.
package enum PageAssets {
  package static let stylesheetName = "podcast-page.css"
  package static let scriptName = "podcast-page.js"
  /// The pages' icon: without one a browser asks the server for `/favicon.ico`, a request
  /// outside the folder that fails on most servers.
  package static let iconName = "podcast-page.svg"

  package static let icon = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">\
    <rect width="32" height="32" rx="7" fill="#0b57d0"/>\
    <path d="M12 9v14l11-7z" fill="#fff"/></svg>

    """

  package static let stylesheet = #"""
    /* podcast: the archive pages' shared style. Written by podcast; changes are overwritten. */
    :root {
      color-scheme: light dark;
      --bg: #fdfdfc; --fg: #1d1d1f; --muted: #5a5a60; --line: #d9d9de; --card: #ffffff;
      --accent: #0b57d0; --accent-fg: #ffffff; --mark: #fff1b8; --mark-fg: #1d1d1f;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #121214; --fg: #ececf1; --muted: #b4b4bd; --line: #3a3a42; --card: #1c1c20;
        --accent: #8ab4f8; --accent-fg: #0b0b0d; --mark: #4a3f10; --mark-fg: #fff7d6;
      }
    }
    * { box-sizing: border-box; }
    html { -webkit-text-size-adjust: 100%; }
    body {
      margin: 0; background: var(--bg); color: var(--fg);
      font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
      overflow-wrap: anywhere;
    }
    a { color: var(--accent); }
    a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible {
      outline: 3px solid var(--accent); outline-offset: 2px;
    }
    header, main { max-width: 48rem; margin: 0 auto; padding: 1rem; }
    header { display: flex; gap: 1rem; align-items: flex-start; flex-wrap: wrap; }
    header .cover { width: 8rem; height: 8rem; object-fit: cover; border-radius: .5rem; flex: none; }
    header .about { flex: 1 1 16rem; min-width: 0; }
    h1 { font-size: 1.6rem; line-height: 1.2; margin: 0 0 .5rem; }
    h2 { font-size: 1.1rem; line-height: 1.3; margin: 0 0 .25rem; }
    .muted, .meta { color: var(--muted); }
    .meta { margin: 0 0 .5rem; font-size: .9rem; }
    .played { font-weight: 600; }
    .links { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0 0; padding: 0; list-style: none; }
    ol.episodes, ul.podcasts { list-style: none; margin: 0; padding: 0; }
    .ep, .podcasts li { border-top: 1px solid var(--line); padding: 1rem 0; }
    /* Episodes off screen are not laid out until scrolled to: 2,000 of them stay quick. */
    .ep { content-visibility: auto; contain-intrinsic-size: auto 9rem; }
    .ep.current h2::before { content: "\25B6\FE0E  "; color: var(--accent); }
    .acts { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: 0 0 .5rem; }
    button {
      font: inherit; color: var(--accent-fg); background: var(--accent); border: 0;
      border-radius: .4rem; padding: .35rem .9rem; cursor: pointer; min-height: 2.25rem;
    }
    details { margin: .25rem 0; }
    summary { cursor: pointer; color: var(--accent); padding: .25rem 0; }
    .notes > div { padding: .25rem 0 0; }
    .notes pre { white-space: pre-wrap; }
    .notes blockquote { margin: .5rem 0; padding-left: 1rem; border-left: 3px solid var(--line); }
    ol.chapters { margin: .25rem 0; padding: 0; list-style: none; }
    ol.chapters button, .cues button {
      background: none; color: var(--fg); padding: .2rem .4rem; text-align: left;
      min-height: 2rem; width: 100%; border-radius: .25rem;
    }
    ol.chapters button[aria-current="true"], .cues button[aria-current="true"] {
      background: var(--mark); color: var(--mark-fg); font-weight: 600;
    }
    .cues { max-height: 16rem; overflow-y: auto; border: 1px solid var(--line); border-radius: .4rem; }
    .time { font-variant-numeric: tabular-nums; color: inherit; }
    .player {
      position: sticky; bottom: 0; background: var(--card); border-top: 1px solid var(--line);
      padding: .5rem 1rem; box-shadow: 0 -2px 8px rgba(0, 0, 0, .08);
    }
    .player > * { max-width: 46rem; margin-left: auto; margin-right: auto; }
    .player audio { display: block; width: 100%; }
    .player p { margin: .25rem auto; }
    .now { font-weight: 600; }
    .cue:empty, .now:empty { display: none; }
    .filter { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 0 0 1rem; }
    .filter input {
      font: inherit; flex: 1 1 12rem; min-width: 0; padding: .4rem .6rem; color: var(--fg);
      background: var(--card); border: 1px solid var(--muted); border-radius: .4rem;
    }
    .podcasts a { display: flex; gap: 1rem; align-items: center; text-decoration: none; }
    .podcasts a:hover .title, .podcasts a:focus .title { text-decoration: underline; }
    .podcasts img, .podcasts .blank {
      width: 4rem; height: 4rem; object-fit: cover; border-radius: .4rem; flex: none;
      background: var(--line);
    }
    .podcasts .title { font-size: 1.1rem; font-weight: 600; display: block; }
    .podcasts .meta { display: block; margin: 0; }
    [hidden] { display: none !important; }
    """#

  package static let script = #"""
    // podcast: the archive pages' shared script. Written by podcast; changes are overwritten.
    // One <audio> for the whole page; episodes, chapters and transcripts are read from the page.
    "use strict";
    (function () {
      function pad(n) { return (n < 10 ? "0" : "") + n; }
      function clock(seconds) {
        var s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
        return (h ? h + ":" + pad(m) : m) + ":" + pad(s % 60);
      }
      function fold(text) {
        return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
      }

      // The index: the filter box hides the podcasts whose title does not match.
      var filter = document.getElementById("filter");
      if (filter) {
        var items = Array.prototype.slice.call(document.querySelectorAll(".podcasts > li"));
        var count = document.getElementById("shown");
        var apply = function () {
          var words = fold(filter.value).split(/\s+/).filter(Boolean), shown = 0;
          items.forEach(function (item) {
            var title = fold(item.getAttribute("data-title") || "");
            var match = words.every(function (word) { return title.indexOf(word) >= 0; });
            item.hidden = !match;
            if (match) shown++;
          });
          if (count) count.textContent = words.length ? shown + " of " + items.length : "";
        };
        filter.addEventListener("input", apply);
        apply();
      }

      var audio = document.getElementById("player");
      if (!audio) return;
      var now = document.getElementById("now"), cueLine = document.getElementById("cue");
      var current = null, cues = [], chapterButtons = [], pendingSeek = null;
      var served = location.protocol === "http:" || location.protocol === "https:";

      function episodeOf(node) { return node.closest ? node.closest(".ep") : null; }

      // Cues are embedded as lines of "start<TAB>end<TAB>text" in a <template>: inert until
      // read, and there under file://, where a browser loads no <track>.
      function cuesOf(episode) {
        if (episode._cues) return episode._cues;
        var template = episode.querySelector("template.cues-data"), list = [];
        if (template) {
          template.content.textContent.split("\n").forEach(function (line) {
            var parts = line.split("\t");
            if (parts.length >= 3) {
              list.push({ start: +parts[0], end: +parts[1], text: parts.slice(2).join("\t") });
            }
          });
        }
        episode._cues = list;
        return list;
      }

      // The transcript's cues as buttons that seek, made the first time it is opened or played.
      function renderCues(episode) {
        var box = episode.querySelector(".cues");
        if (!box || box.childNodes.length) return;
        var fragment = document.createDocumentFragment();
        cuesOf(episode).forEach(function (cue, index) {
          var button = document.createElement("button");
          button.type = "button";
          button.setAttribute("data-t", cue.start);
          button.setAttribute("data-cue", index);
          var time = document.createElement("span");
          time.className = "time";
          time.textContent = clock(cue.start) + " ";
          button.appendChild(time);
          button.appendChild(document.createTextNode(cue.text));
          fragment.appendChild(button);
        });
        box.appendChild(fragment);
      }

      function setButtons(playing) {
        document.querySelectorAll(".ep .play").forEach(function (button) {
          var mine = current && episodeOf(button) === current && playing;
          button.textContent = mine ? "Pause" : "Play";
          button.setAttribute("aria-pressed", mine ? "true" : "false");
        });
      }

      function select(episode) {
        if (current === episode) return;
        if (current) current.classList.remove("current");
        current = episode;
        episode.classList.add("current");
        while (audio.firstChild) audio.removeChild(audio.firstChild);
        audio.src = episode.getAttribute("data-file");
        var vtt = episode.getAttribute("data-vtt");
        if (vtt && served) {
          // A file:// page gets no <track> (the browser refuses it); the cues serve both.
          var track = document.createElement("track");
          track.kind = "captions";
          track.src = vtt;
          track.default = true;
          track.label = "Transcript";
          audio.appendChild(track);
        }
        cues = cuesOf(episode);
        renderCues(episode);
        chapterButtons = Array.prototype.slice.call(episode.querySelectorAll("ol.chapters button"));
        var title = episode.querySelector("h2");
        now.textContent = title ? title.textContent : "";
        cueLine.textContent = "";
        lastCue = -1;
        lastChapter = -1;
      }

      function seek(seconds) {
        if (audio.readyState >= 1) {
          audio.currentTime = seconds;
        } else {
          pendingSeek = seconds;
        }
      }

      function play() {
        var started = audio.play();
        if (started && started.catch) started.catch(function () { setButtons(false); });
      }

      audio.addEventListener("loadedmetadata", function () {
        if (pendingSeek !== null) {
          audio.currentTime = pendingSeek;
          pendingSeek = null;
        }
      });

      // The last item at or before t, by binary search over start times.
      function indexAt(list, t, startOf) {
        var low = 0, high = list.length - 1, found = -1;
        while (low <= high) {
          var middle = (low + high) >> 1;
          if (startOf(list[middle]) <= t) { found = middle; low = middle + 1; } else { high = middle - 1; }
        }
        return found;
      }

      var lastCue = -1, lastChapter = -1;
      function follow() {
        if (!current) return;
        var t = audio.currentTime;
        var chapter = indexAt(chapterButtons, t, function (b) { return +b.getAttribute("data-t"); });
        if (chapter !== lastChapter) {
          chapterButtons.forEach(function (button, index) {
            if (index === chapter) button.setAttribute("aria-current", "true");
            else button.removeAttribute("aria-current");
          });
          lastChapter = chapter;
        }
        var index = indexAt(cues, t, function (c) { return c.start; });
        if (index >= 0 && t > cues[index].end) index = -1;
        if (index !== lastCue) {
          cueLine.textContent = index >= 0 ? cues[index].text : "";
          var box = current.querySelector(".cues");
          if (box) {
            var old = box.querySelector('[aria-current="true"]');
            if (old) old.removeAttribute("aria-current");
            var mark = index >= 0 ? box.querySelector('[data-cue="' + index + '"]') : null;
            if (mark) {
              mark.setAttribute("aria-current", "true");
              // Scroll the transcript's own box, not the page.
              if (mark.offsetTop < box.scrollTop || mark.offsetTop > box.scrollTop + box.clientHeight - mark.offsetHeight) {
                box.scrollTop = mark.offsetTop - box.offsetTop - box.clientHeight / 3;
              }
            }
          }
          lastCue = index;
        }
      }
      audio.addEventListener("timeupdate", follow);
      audio.addEventListener("seeked", follow);
      audio.addEventListener("play", function () { setButtons(true); });
      audio.addEventListener("pause", function () { setButtons(false); });
      audio.addEventListener("ended", function () { setButtons(false); });

      document.addEventListener("click", function (event) {
        var button = event.target.closest ? event.target.closest("button") : null;
        if (!button) return;
        var episode = episodeOf(button);
        if (!episode) return;
        if (button.classList.contains("play")) {
          if (current === episode && !audio.paused) { audio.pause(); return; }
          select(episode);
          play();
        } else if (button.hasAttribute("data-t")) {
          select(episode);
          seek(+button.getAttribute("data-t"));
          play();
        }
      });

      document.addEventListener("toggle", function (event) {
        var details = event.target;
        if (details.open && details.classList && details.classList.contains("transcript")) {
          renderCues(episodeOf(details));
        }
      }, true);
    })();
    """#
}
