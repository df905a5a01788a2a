import Basics
internal import GRDB
import Model

extension LibrarySchema {
  /// "v14-find-index": the full-text index `find` searches (`FindIndex`).
  ///
  /// `findText` is an FTS5 table with a row per episode of a subscription, its rowid the
  /// episode's row id: the title, the chapter titles, the show notes and a transcript, as text
  /// (`unicode61` with accents removed, so case and accents are ignored). Its content is kept,
  /// so snippets can be cut from it and a moment found again after its files are gone.
  /// `findSources` holds what the text alone cannot say: a digest of the title and notes as
  /// the feed gave them (a sync re-indexes an episode only when it changed), one of the side
  /// files the chapters and transcript were read from (their names, sizes and times: files
  /// that changed, or arrived while a cut lost their indexing, are read again), and the
  /// timelines of the chapters and the transcript (`PassageText`), which turn a match back
  /// into a moment of the audio, and the episode's index as `episodes` numbers it from the
  /// feed the library keeps (`feedIndex`, null when the feed no longer lists it), where
  /// whether retention removed its file (`pruned`: a pruned episode is listed as `deleted`),
  /// `findFeeds` saying the subscription's indexes are known (`listed`; a paged feed read in
  /// part leaves them to be counted from its kept copy). `findState` says whether the index
  /// covers the library:
  /// a new library's does; a library from before this version is indexed at its first
  /// `find` (`through` is how far an interrupted build got).
  ///
  /// An episode's row goes with it, by trigger, in the transaction that removes it (an
  /// unsubscribe), however it is removed.
  static func addFindIndex(_ db: Database) throws {
    try createFindTables(db)
    try db.execute(
      sql: """
        CREATE TABLE findState (
          id INTEGER PRIMARY KEY CHECK (id = 1), built INTEGER NOT NULL,
          through INTEGER NOT NULL DEFAULT 0);
        INSERT INTO findState (id, built) VALUES (1, NOT EXISTS (SELECT 1 FROM episodes));
        CREATE TABLE findFeeds (subscriptionId INTEGER PRIMARY KEY, listed INTEGER NOT NULL);
        CREATE TRIGGER findForgetSubscription AFTER DELETE ON subscriptions
        BEGIN
          DELETE FROM findFeeds WHERE subscriptionId = OLD.id;
        END;
        """)
  }

  /// The index's rows (`findText`, `findSources`) and the trigger that removes an episode's:
  /// made by the migration, and again by a rebuild, which moves the old ones aside first.
  static func createFindTables(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE VIRTUAL TABLE findText USING fts5(
          title, chapters, notes, transcripts, tokenize = 'unicode61 remove_diacritics 2');
        CREATE TABLE findSources (
          episodeId INTEGER PRIMARY KEY, digest INTEGER, sideFiles INTEGER, feedIndex INTEGER,
          pruned INTEGER NOT NULL DEFAULT 0, chapterTimes BLOB, transcriptTimes BLOB);
        CREATE TRIGGER findForgetEpisode AFTER DELETE ON episodes
        BEGIN
          DELETE FROM findText WHERE rowid = OLD.id;
          DELETE FROM findSources WHERE episodeId = OLD.id;
        END;
        """)
  }
}
