/* The database work a cold sync's promises ask of SQLite, and nothing else: the rows an import
 * and a first sync of COUNT feeds of three episodes must leave, written through SQLite's C API
 * in the same kind of transactions podcast uses (docs/ARCHITECTURE.md, "How a sync flows"):
 *
 *   import: one row per feed, in one transaction;
 *   record rounds of RECORD feeds, in WAL mode at synchronous = NORMAL: each feed's validators
 *     and check time, its kept copy (the feed's text, compressed with zlib), its three episodes,
 *     their find-index text in an FTS5 table (unicode61, diacritics removed, as podcast's), and
 *     a queued download row for its newest episode;
 *   finish rounds of FINISH downloads at synchronous = FULL, so each round's commit is on disk
 *     before its episodes appear: each download's row marked done with its file and details.
 *
 * No network, no parsing, no files beyond the database, no second index or trigger: one
 * primary key per table and the uniqueness an episode's identity needs. make bench runs it
 * beside curl and fs-floor.c so that a cold sync's CPU can be read against all three.
 * Usage: db-floor DATABASE COUNT RECORD FINISH
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static sqlite3 *db;

static void check(int code, const char *what) {
  if (code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW) {
    fprintf(stderr, "db-floor: %s: %s\n", what, sqlite3_errmsg(db));
    exit(1);
  }
}

static void run(const char *sql) { check(sqlite3_exec(db, sql, NULL, NULL, NULL), sql); }

static sqlite3_stmt *prepare(const char *sql) {
  sqlite3_stmt *statement;
  check(sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
  return statement;
}

static void step(sqlite3_stmt *statement) {
  check(sqlite3_step(statement), sqlite3_sql(statement));
  sqlite3_reset(statement);
}

static void text(sqlite3_stmt *statement, int column, const char *value) {
  sqlite3_bind_text(statement, column, value, -1, SQLITE_TRANSIENT);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: db-floor DATABASE COUNT RECORD FINISH\n");
    return 2;
  }
  long count = atol(argv[2]), record = atol(argv[3]), finish = atol(argv[4]);
  check(sqlite3_open(argv[1], &db), argv[1]);
  run("PRAGMA journal_mode = WAL");
  run("PRAGMA synchronous = NORMAL");
  run("CREATE TABLE subscriptions (id INTEGER PRIMARY KEY, feedURL TEXT NOT NULL UNIQUE,"
      " title TEXT, addedAt REAL NOT NULL, lastChecked REAL, etag TEXT, lastModified TEXT);"
      "CREATE TABLE keptFeeds (subscriptionId INTEGER PRIMARY KEY, copy BLOB NOT NULL);"
      "CREATE TABLE episodes (id INTEGER PRIMARY KEY, subscriptionId INTEGER NOT NULL,"
      " key TEXT NOT NULL, enclosureURL TEXT, title TEXT, published REAL, firstSeen REAL,"
      " UNIQUE (subscriptionId, key));"
      "CREATE VIRTUAL TABLE findText USING fts5(title, notes,"
      " tokenize = 'unicode61 remove_diacritics 2');"
      "CREATE TABLE downloads (key TEXT PRIMARY KEY, url TEXT NOT NULL, state TEXT NOT NULL,"
      " bytes INTEGER NOT NULL, file TEXT, details TEXT, updatedAt REAL NOT NULL);");
  double now = (double)time(NULL);
  char url[512], title[256], key[256], feed[4096], file[512], details[1024];

  sqlite3_stmt *subscribe = prepare("INSERT INTO subscriptions (feedURL, addedAt) VALUES (?, ?)");
  run("BEGIN IMMEDIATE");
  for (long n = 1; n <= count; n++) {
    snprintf(url, sizeof url, "http://127.0.0.1:18080/scale%ld/feed-%06ld.xml", count, n);
    text(subscribe, 1, url);
    sqlite3_bind_double(subscribe, 2, now);
    step(subscribe);
  }
  run("COMMIT");

  sqlite3_stmt *validate = prepare(
    "UPDATE subscriptions SET title = ?, lastChecked = ?, etag = ?, lastModified = ? WHERE id = ?");
  sqlite3_stmt *keep = prepare("INSERT INTO keptFeeds (subscriptionId, copy) VALUES (?, ?)");
  sqlite3_stmt *episode = prepare(
    "INSERT INTO episodes (subscriptionId, key, enclosureURL, title, published, firstSeen)"
    " VALUES (?, ?, ?, ?, ?, ?)");
  sqlite3_stmt *index = prepare("INSERT INTO findText (rowid, title, notes) VALUES (?, ?, '')");
  sqlite3_stmt *queue = prepare(
    "INSERT INTO downloads (key, url, state, bytes, updatedAt) VALUES (?, ?, 'queued', 0, ?)");
  sqlite3_stmt *done = prepare(
    "UPDATE downloads SET state = 'done', bytes = ?, file = ?, details = ?, updatedAt = ?"
    " WHERE key = ?");
  unsigned char copy[4096];
  for (long first = 1; first <= count; first += record) {
    long last = first + record - 1 < count ? first + record - 1 : count;
    run("BEGIN IMMEDIATE");
    for (long n = first; n <= last; n++) {
      int length = snprintf(feed, sizeof feed,
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Feed %06ld</title>\n", n);
      for (int e = 3; e >= 1; e--)
        length += snprintf(feed + length, sizeof feed - length,
          "<item><title>Episode %d of %06ld</title><guid>%06ld-%d</guid><pubDate>Mon, 0%d Jan"
          " 2024 00:00:00 +0000</pubDate><enclosure url=\"http://127.0.0.1:18080/scale%ld/ep.mp3"
          "?feed=%06ld&amp;ep=%d\" length=\"1000\" type=\"audio/mpeg\"/></item>\n",
          e, n, n, e, e, count, n, e);
      length += snprintf(feed + length, sizeof feed - length, "</channel></rss>\n");
      uLongf compressed = sizeof copy;
      if (compress2(copy, &compressed, (const Bytef *)feed, (uLong)length, 6) != Z_OK) {
        fprintf(stderr, "db-floor: compress failed\n");
        return 1;
      }
      snprintf(title, sizeof title, "Feed %06ld", n);
      text(validate, 1, title);
      sqlite3_bind_double(validate, 2, now);
      text(validate, 3, "\"3e8-65920080\"");
      text(validate, 4, "Mon, 01 Jan 2024 00:00:00 GMT");
      sqlite3_bind_int64(validate, 5, n);
      step(validate);
      sqlite3_bind_int64(keep, 1, n);
      sqlite3_bind_blob(keep, 2, copy, (int)compressed, SQLITE_TRANSIENT);
      step(keep);
      for (int e = 3; e >= 1; e--) {
        snprintf(key, sizeof key, "guid:%06ld-%d", n, e);
        snprintf(url, sizeof url, "http://127.0.0.1:18080/scale%ld/ep.mp3?feed=%06ld&ep=%d",
          count, n, e);
        snprintf(title, sizeof title, "Episode %d of %06ld", e, n);
        sqlite3_bind_int64(episode, 1, n);
        text(episode, 2, key);
        text(episode, 3, url);
        text(episode, 4, title);
        sqlite3_bind_double(episode, 5, 1704067200.0 + e * 86400.0);
        sqlite3_bind_double(episode, 6, now);
        step(episode);
        sqlite3_bind_int64(index, 1, sqlite3_last_insert_rowid(db));
        text(index, 2, title);
        step(index);
        if (e == 3) {  // the newest episode, which the sync downloads
          text(queue, 1, key);
          text(queue, 2, url);
          sqlite3_bind_double(queue, 3, now);
          step(queue);
        }
      }
    }
    run("COMMIT");
    run("PRAGMA synchronous = FULL");
    for (long round = first; round <= last; round += finish) {
      run("BEGIN IMMEDIATE");
      for (long n = round; n < round + finish && n <= last; n++) {
        snprintf(key, sizeof key, "guid:%06ld-3", n);
        snprintf(file, sizeof file, "Feed %06ld/2024-01-03 Episode 3 of %06ld.mp3", n, n);
        snprintf(details, sizeof details,
          "{\"g\":\"%06ld-3\",\"p\":\"Feed %06ld\\/2024-01-03 Episode 3 of %06ld.mp3\",\"t\":1000}",
          n, n, n);
        sqlite3_bind_int64(done, 1, 1000);
        text(done, 2, file);
        text(done, 3, details);
        sqlite3_bind_double(done, 4, now);
        text(done, 5, key);
        step(done);
      }
      run("COMMIT");
    }
    run("PRAGMA synchronous = NORMAL");
  }
  sqlite3_finalize(subscribe);
  sqlite3_finalize(validate);
  sqlite3_finalize(keep);
  sqlite3_finalize(episode);
  sqlite3_finalize(index);
  sqlite3_finalize(queue);
  sqlite3_finalize(done);
  check(sqlite3_close(db), "close");
  return 0;
}
