#!/usr/bin/env python3
"""Python feedparser's view of feeds, as JSON, for bench/reader-fidelity/compare.mjs.

Reads one JSON request on stdin: a list of {"path", "url", "headers"} (headers as the HTTP response
would carry them, names lower-cased) and writes one JSON line per feed to stdout:

  {"path", "ok", "version", "bozo", "error", "feed": {"title", "title_type"},
   "entries": [{"title", "title_type", "link", "date", "date_from", "authors",
                "text", "text_type", "text_unsanitised"}]}

Dates are ISO 8601 UTC (feedparser's *_parsed structs are UTC); `date` is the first of published,
updated and created that parsed, as the reader dates an entry. `text` is the first content value,
else the summary, with its type (text/plain or text/html). The document URL is feedparser's `href`
(as if it had fetched it), so relative links resolve against it as they do in the reader.

With --check, prints the feedparser version and exits 0 (exit 3 when it is not installed).
"""

import calendar
import datetime
import json
import sys

try:
    import feedparser
except ImportError:  # pragma: no cover - reported by compare.mjs
    sys.stderr.write(
        "python feedparser is not installed: apt-get install -y python3-feedparser\n"
    )
    sys.exit(3)


def iso(struct):
    if not struct:
        return None
    try:
        seconds = calendar.timegm(struct)
    except (TypeError, ValueError, OverflowError):
        return None
    try:
        return (
            datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc)
            .isoformat()
            .replace("+00:00", "Z")
        )
    except (OverflowError, OSError, ValueError):
        return None


def detail_type(entry, key):
    detail = entry.get(key + "_detail")
    if detail and detail.get("type"):
        return detail.get("type")
    return "text/plain"


def authors_of(entry):
    names = []
    for a in entry.get("authors") or []:
        name = a.get("name") or a.get("email")
        if name:
            names.append(name)
    if not names and entry.get("author"):
        names.append(entry.get("author"))
    return names


def entry_view(entry):
    date = None
    date_from = None
    for key in ("published", "updated", "created"):
        value = iso(entry.get(key + "_parsed"))
        if value:
            date, date_from = value, key
            break
    text, text_type = None, None
    for c in entry.get("content") or []:
        if c.get("value") and c.get("value").strip():
            text, text_type = c.get("value"), c.get("type") or "text/html"
            break
    if text is None and entry.get("summary"):
        text, text_type = entry.get("summary"), detail_type(entry, "summary")
    return {
        "title": entry.get("title"),
        "title_type": detail_type(entry, "title"),
        "link": entry.get("link"),
        "id": entry.get("id"),
        "guidislink": bool(entry.get("guidislink")),
        "date": date,
        "date_from": date_from,
        "authors": authors_of(entry),
        "text": text,
        "text_type": text_type,
    }


def dump(request):
    with open(request["path"], "rb") as f:
        data = f.read()
    headers = {k.lower(): v for k, v in (request.get("headers") or {}).items()}
    # The document URL as feedparser's own fetch would record it (result['href']), so relative links
    # resolve against it; headers only as the file declares them (any header without a Content-Type
    # would make feedparser assume ISO-8859-1, "no Content-type specified").
    def opened(*args):
        args[-1]["href"] = request["url"]
        return data

    feedparser.api._open_resource = opened
    result = feedparser.parse(request["url"], response_headers=dict(headers))
    # Unsanitised too: what feedparser's sanitiser removed tells a sanitising difference from a fault.
    raw = feedparser.parse(request["url"], response_headers=dict(headers), sanitize_html=False)
    raw_entries = raw.get("entries") or []
    feed = result.get("feed") or {}
    error = result.get("bozo_exception")
    return {
        "path": request["path"],
        "ok": True,
        "version": result.get("version") or "",
        "bozo": bool(result.get("bozo")),
        "error": None if error is None else "%s: %s" % (type(error).__name__, error),
        "encoding": result.get("encoding"),
        "feed": {"title": feed.get("title"), "title_type": detail_type(feed, "title")},
        "entries": [
            dict(
                entry_view(e),
                text_unsanitised=entry_view(raw_entries[i])["text"] if i < len(raw_entries) else None,
            )
            for i, e in enumerate(result.get("entries") or [])
        ],
    }


def main():
    if "--check" in sys.argv:
        print(feedparser.__version__)
        return
    for request in json.load(sys.stdin):
        try:
            out = dump(request)
        except Exception as e:  # one feed crashing feedparser is a result, not the end of the run
            out = {"path": request["path"], "ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
