import Foundation
import Sealite

/// The text a dump writes. A class: the dump methods take their stream by
/// value, so a String given to them would receive a copy of the text, and the
/// test would see none of it.
final class DumpOutput: TextOutputStream {
  private(set) var text = ""

  func write(_ string: String) {
    text += string
  }
}

/// One value of each kind a format prints differently, named by kind, in a
/// table `value(name, value)`.
func createValuesTable(_ db: Database) throws {
  try db.execute(
    sql: """
      CREATE TABLE value(name, value);
      INSERT INTO value VALUES ('blob: apostrophe', CAST('it''s' AS BLOB));
      INSERT INTO value VALUES ('blob: empty', X'');
      INSERT INTO value VALUES ('blob: invalid utf8', X'FF');
      INSERT INTO value VALUES ('blob: text', CAST('Hi' AS BLOB));
      INSERT INTO value VALUES ('blob: utf8', CAST('café' AS BLOB));
      INSERT INTO value VALUES ('blob: uuid', X'0123456789ABCDEF0123456789ABCDEF');
      INSERT INTO value VALUES ('double: -0.5', -0.5);
      INSERT INTO value VALUES ('double: 3.0', 3.0);
      INSERT INTO value VALUES ('integer: 42', 42);
      INSERT INTO value VALUES ('integer: min', -9223372036854775808);
      INSERT INTO value VALUES ('null', NULL);
      INSERT INTO value VALUES ('text: apostrophe', 'it''s');
      INSERT INTO value VALUES ('text: backslash', 'a\\b');
      INSERT INTO value VALUES ('text: empty', '');
      INSERT INTO value VALUES ('text: newline', 'a' || char(10) || 'b');
      INSERT INTO value VALUES ('text: quote', 'say "hi"');
      INSERT INTO value VALUES ('text: slash', 'a/b');
      INSERT INTO value VALUES ('text: unicode', 'héllo 🌍');
      """)
}

/// Authors, their books, and countries whose primary key is text, inserted
/// out of the order of their keys.
func createLibrary(_ db: Database) throws {
  try db.execute(
    sql: """
      CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL);
      CREATE INDEX book_on_authorId ON book(authorId);
      CREATE TABLE country(code TEXT PRIMARY KEY, name TEXT NOT NULL);
      INSERT INTO author VALUES (2, 'Ursula K. Le Guin'), (1, 'Octavia Butler');
      INSERT INTO book VALUES (3, 1, 'Kindred'), (1, 2, 'The Dispossessed'), (2, NULL, 'Anonymous Tales');
      INSERT INTO country VALUES ('FR', 'France'), ('DE', 'Germany');
      """)
}

/// The schema `createLibrary` makes, as the dumps print it.
let librarySchema = """
  sqlite_master
  CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
  CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT NOT NULL);
  CREATE INDEX book_on_authorId ON book(authorId);
  CREATE TABLE country(code TEXT PRIMARY KEY, name TEXT NOT NULL);

  """

/// An in-memory database made by `body`.
func makeQueue(_ body: (Database) throws -> Void) throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write(body)
  return dbQueue
}

/// What `dump` writes.
func dumped(_ dump: (DumpOutput) throws -> Void) throws -> String {
  let output = DumpOutput()
  try dump(output)
  return output.text
}
