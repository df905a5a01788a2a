import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v8-account": the sync-server account (one per library), the URL the server knows each
  /// subscription by, the journal of subscription changes and the outbox of episode actions
  /// owed to the server, and how far each episode was played.
  ///
  /// The journal and the outbox are written by triggers, so that every way a subscription is
  /// added, removed or moved (`subscribe`, `unsubscribe`, `import`, a permanent redirect sync
  /// follows) and every way a download is recorded done is journaled in the same transaction,
  /// without the code that makes those changes knowing about accounts. Both write only while
  /// the library has an account. A change applied from the server is made with a row in
  /// `accountApplying` (inside that change's own transaction, so no other one ever sees it):
  /// journaling it would send it back.
  static func addAccount(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE account (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          server TEXT NOT NULL, user TEXT NOT NULL, password TEXT NOT NULL,
          device TEXT NOT NULL, api TEXT NOT NULL, addedAt DATETIME NOT NULL,
          subscriptionsSince INTEGER, actionsSince INTEGER,
          subscriptionsExchanged DATETIME, actionsExchanged DATETIME,
          lastError TEXT, lastErrorAt DATETIME);
        CREATE TABLE accountFeeds (
          subscriptionId INTEGER PRIMARY KEY REFERENCES subscriptions(id) ON DELETE CASCADE,
          serverURL TEXT NOT NULL);
        CREATE INDEX accountFeeds_by_url ON accountFeeds(serverURL);
        CREATE TABLE accountJournal (
          id INTEGER PRIMARY KEY AUTOINCREMENT, change TEXT NOT NULL, feedURL TEXT NOT NULL,
          serverURL TEXT, subscriptionId INTEGER, madeAt DATETIME NOT NULL);
        CREATE TABLE accountOutbox (
          id INTEGER PRIMARY KEY AUTOINCREMENT, action TEXT NOT NULL, feedURL TEXT,
          episodeURL TEXT NOT NULL, guid TEXT, doneAt DATETIME NOT NULL,
          position INTEGER, total INTEGER, sent INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE playStates (
          key TEXT PRIMARY KEY, feedURL TEXT, position INTEGER, total INTEGER,
          played INTEGER NOT NULL DEFAULT 0, playedAt DATETIME, actedAt DATETIME NOT NULL);
        CREATE TABLE accountApplying (id INTEGER PRIMARY KEY);
        """)
    let journaling =
      "EXISTS (SELECT 1 FROM account) AND NOT EXISTS (SELECT 1 FROM accountApplying)"
    let now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
    let serverURL = "(SELECT serverURL FROM accountFeeds WHERE subscriptionId = OLD.id)"
    try db.execute(
      sql: """
        CREATE TRIGGER accountJournalAdd AFTER INSERT ON subscriptions WHEN \(journaling)
        BEGIN
          INSERT INTO accountJournal (change, feedURL, subscriptionId, madeAt)
          VALUES ('add', NEW.feedURL, NEW.id, \(now));
        END;
        CREATE TRIGGER accountJournalRemove BEFORE DELETE ON subscriptions WHEN \(journaling)
        BEGIN
          INSERT INTO accountJournal (change, feedURL, serverURL, subscriptionId, madeAt)
          VALUES ('remove', OLD.feedURL, \(serverURL), OLD.id, \(now));
        END;
        CREATE TRIGGER accountJournalMove AFTER UPDATE OF feedURL ON subscriptions
        WHEN NEW.feedURL IS NOT OLD.feedURL AND \(journaling)
        BEGIN
          INSERT INTO accountJournal (change, feedURL, serverURL, subscriptionId, madeAt)
          VALUES ('remove', OLD.feedURL, \(serverURL), OLD.id, \(now));
          INSERT INTO accountJournal (change, feedURL, subscriptionId, madeAt)
          VALUES ('add', NEW.feedURL, NEW.id, \(now));
        END;
        """)
    // The finished download's own time and URLs; its GUID is in its identity key.
    let download = """
      INSERT INTO accountOutbox (action, feedURL, episodeURL, guid, doneAt)
      VALUES ('download', NEW.feedURL, NEW.url,
        CASE WHEN substr(NEW.episodeKey, 1, 5) = 'guid:' THEN substr(NEW.episodeKey, 6) END,
        NEW.updatedAt);
      """
    try db.execute(
      sql: """
        CREATE TRIGGER accountOutboxDownload AFTER INSERT ON downloads
        WHEN NEW.state = 'done' AND EXISTS (SELECT 1 FROM account)
        BEGIN \(download) END;
        CREATE TRIGGER accountOutboxFinish AFTER UPDATE OF state ON downloads
        WHEN NEW.state = 'done' AND OLD.state IS NOT 'done' AND EXISTS (SELECT 1 FROM account)
        BEGIN \(download) END;
        """)
  }
}
