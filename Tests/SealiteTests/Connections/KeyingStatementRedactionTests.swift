import CSQLCipher
import Foundation
import Testing

// @testable: the redaction and SQLTokenizer are Core internals; this file checks them token by token.
@testable import Sealite

/// A keying statement as SQLite reads it, and the text of it that must never print.
private struct KeyingForm: Sendable, CustomTestStringConvertible {
  let sql: String
  let secret: String
  /// True if SQLite can not read the statement to its end (it fails as it is).
  let isUnterminated: Bool

  init(_ sql: String, secret: String, unterminated: Bool = false) {
    self.sql = sql
    self.secret = secret
    self.isUnterminated = unterminated
  }

  /// The statement made to fail while SQLite compiles it, keeping its key.
  var failingSQL: String { isUnterminated ? sql : sql + " )" }

  // Test names are printed: they show the statement without its key.
  var testDescription: String {
    sql.replacingOccurrences(of: secret, with: "…").replacingOccurrences(of: "\n", with: "\\n")
  }
}

/// Spellings SQLite reads as key pragmas, which a pattern over the text missed.
private let keyPragmaForms = [
  KeyingForm("PRAGMA/**/key='comment-glued-secret'", secret: "comment-glued-secret"),
  KeyingForm("PRAGMA 'key'='string-name-secret'", secret: "string-name-secret"),
  KeyingForm("PRAGMA --c\nkey=line_comment_secret", secret: "line_comment_secret"),
  KeyingForm("PRAGMA main/**/.key='commented-dot-secret'", secret: "commented-dot-secret"),
  KeyingForm("PRAGMA 'main'.key='string-schema-secret'", secret: "string-schema-secret"),
  KeyingForm("PRAGMA \"main\".rekey = 'quoted-schema-secret'", secret: "quoted-schema-secret"),
  KeyingForm("PRAGMA [key] = 'bracketed-secret'", secret: "bracketed-secret"),
  KeyingForm("PRAGMA `hexkey` = 'abcd'", secret: "abcd"),
]

/// Statements that hand SQLCipher other secret material, or copy a keyed database.
private let otherKeyingForms = [
  KeyingForm("SELECT sqlcipher_export('export-secret')", secret: "export-secret"),
  KeyingForm("PRAGMA cipher_salt = \"x'0123456789abcdef0123456789abcdef'\"", secret: "0123456789abcdef"),
  KeyingForm(
    "PRAGMA cipher_add_random = \"x'fedcba9876543210fedcba9876543210'\"", secret: "fedcba9876543210"),
]

/// Every printable form of a value.
private func printedForms(_ value: Any) -> String {
  var dumped = ""
  dump(value, to: &dumped)
  return [String(describing: value), String(reflecting: value), "\(value)", dumped].joined(separator: "\n")
}

/// Collects every printable form of the events of a trace.
private final class TraceRecorder: Sendable {
  private let lines = Locked<[String]>([])

  var text: String { lines.value.joined(separator: "\n") }
  var all: [String] { lines.value }

  func record(_ event: Database.TraceEvent) {
    var texts = [printedForms(event)]
    switch event {
    case .statement(let statement), .profile(let statement, _):
      texts += [statement.sql, statement.expandedSQL, printedForms(statement)]
    }
    lines.withLock { $0 += texts }
  }
}

/// An in-memory queue: SQL keying on it changes nothing that matters to the test.
private func memoryQueue(publicArguments: Bool = false) throws -> DatabaseQueue {
  var config = Configuration()
  config.publicStatementArguments = publicArguments
  return try DatabaseQueue(configuration: config)
}

/// An in-memory queue already keyed through SQL, so that `PRAGMA rekey` compiles on it too.
private func keyedMemoryQueue(publicArguments: Bool = false) throws -> DatabaseQueue {
  let queue = try memoryQueue(publicArguments: publicArguments)
  try queue.inDatabase { db in try db.execute(sql: "PRAGMA key = 'first-key'") }
  return queue
}

@Suite("Keying statements are recognised as SQLite reads them")
struct KeyingStatementRedactionTests {
  // MARK: through the public API

  @Test(
    "a key pragma that fails to compile is an error without its key, from execute and makeStatement",
    arguments: keyPragmaForms + otherKeyingForms + [
      KeyingForm("PRAGMA/**/key = 'UNTERMINATED-SECRET", secret: "UNTERMINATED-SECRET", unterminated: true)
    ])
  fileprivate func compileErrorsHideTheKey(form: KeyingForm) throws {
    for publicArguments in [false, true] {
      let queue = try memoryQueue(publicArguments: publicArguments)
      let failures: [(String, (Database) throws -> Void)] = [
        ("execute", { db in try db.execute(sql: form.failingSQL) }),
        ("makeStatement", { db in _ = try db.makeStatement(sql: form.failingSQL) }),
      ]
      for (api, run) in failures {
        let error = try #require(throws: DatabaseError.self, "\(api)") {
          try queue.inDatabase { db in try run(db) }
        }
        #expect(!printedForms(error).contains(form.secret), "\(api): the error shows the key")
        #expect(!(error.message ?? "").contains(form.secret), "\(api)")
        #expect(error.sql == KeyingStatementRedaction.redacted, "\(api)")
        #expect(error.message?.contains("details withheld") == true, "\(api): \(error.resultCode)")
      }
    }
  }

  @Test(
    "SQLite's prepare error quotes an unterminated key, and Sealite's error does not",
    arguments: ["PRAGMA/**/key = 'SECRET", "ATTACH ':memory:' AS a KEY 'SECRET", "PRAGMA key('SECRET"])
  func unterminatedKeyError(sql: String) throws {
    let queue = try memoryQueue(publicArguments: true)
    let error = try #require(throws: DatabaseError.self) {
      try queue.inDatabase { db in try db.execute(sql: sql) }
    }
    for text in [
      error.message ?? "", error.sql ?? "", error.description, String(describing: error),
      String(reflecting: error), printedForms(error),
    ] {
      #expect(!text.contains("SECRET"))
    }
    #expect(error.resultCode == .SQLITE_ERROR)
    // The control: SQLite's own message for the same SQL does hold the key.
    let sqliteMessage = try queue.inDatabase { db -> String in
      let connection = try #require(db.sqliteConnection)
      var statement: SQLiteStatement?
      #expect(sqlite3_prepare_v2(connection, sql, -1, &statement, nil) != SQLITE_OK)
      sqlite3_finalize(statement)
      return String(cString: sqlite3_errmsg(connection))
    }
    #expect(sqliteMessage.contains("unrecognized token"))
    #expect(sqliteMessage.contains("SECRET"))
  }

  @Test(
    "a key pragma run while tracing is traced as <redacted keying statement>, arguments public or not",
    arguments: keyPragmaForms + otherKeyingForms.dropFirst(), [false, true])
  fileprivate func tracesHideTheKey(form: KeyingForm, publicArguments: Bool) throws {
    let queue = try keyedMemoryQueue(publicArguments: publicArguments)
    let trace = TraceRecorder()
    try queue.inDatabase { db in
      db.trace(options: [.statement, .profile]) { trace.record($0) }
      try db.execute(sql: form.sql)
      try db.execute(sql: "SELECT 'after the key'")
    }
    #expect(trace.all.contains(KeyingStatementRedaction.redacted), "the keying statement was traced")
    #expect(trace.text.contains("SELECT 'after the key'"), "the trace works")
    #expect(!trace.text.contains(form.secret))
  }

  @Test(
    "a prepared keying statement describes itself as <redacted keying statement>",
    arguments: keyPragmaForms + otherKeyingForms + [
      KeyingForm("ATTACH ? AS other KEY 'prepared-attach-secret'", secret: "prepared-attach-secret"),
      KeyingForm("EXPLAIN QUERY PLAN PRAGMA key('explained-secret')", secret: "explained-secret"),
    ])
  fileprivate func descriptionHidesTheKey(form: KeyingForm) throws {
    let queue = try keyedMemoryQueue(publicArguments: true)
    try queue.inDatabase { db in
      let statement = try db.makeStatement(sql: form.sql)
      #expect(statement.description == KeyingStatementRedaction.redacted)
      #expect(!printedForms(statement).contains(form.secret))
    }
  }

  @Test(
    "statements that only mention a key are traced, described and reported as written",
    arguments: [
      "SELECT 'pragma key' AS x", "CREATE TABLE key (a)", "SELECT * FROM t WHERE \"key\" = 1",
      "PRAGMA cipher_version", "PRAGMA table_info(key)", "INSERT INTO t VALUES ('ATTACH')",
      "SELECT 'ATTACH x AS y KEY z' AS attach", "PRAGMA foreign_keys", "SELECT key FROM t /* PRAGMA key */",
    ])
  func mentionsAreNotRedacted(sql: String) throws {
    let queue = try memoryQueue()
    try queue.inDatabase { db in try db.execute(sql: "CREATE TABLE t (key)") }
    let error = try #require(throws: DatabaseError.self) {
      try queue.inDatabase { db in try db.execute(sql: sql + " )") }
    }
    #expect(error.sql == sql + " )")
    #expect(error.message?.contains("syntax error") == true, "\(error)")

    let trace = TraceRecorder()
    try queue.inDatabase { db in
      #expect(try db.makeStatement(sql: sql).description == sql)
      db.trace(options: [.statement, .profile]) { trace.record($0) }
      try db.execute(sql: sql)
    }
    #expect(trace.all.contains(sql))
    #expect(!trace.text.contains(KeyingStatementRedaction.redacted))
  }

  @Test("ATTACH … KEY is redacted with comments, odd spacing and a bound key, and when unterminated")
  func attachForms() throws {
    let queue = try memoryQueue(publicArguments: true)
    let trace = TraceRecorder()
    try queue.inDatabase { db in
      db.trace(options: [.statement, .profile]) { trace.record($0) }
      try db.execute(sql: "attach/**/database':memory:'as\"a\"key'glued-attach-secret'")
      try db.execute(sql: "ATTACH --c\n ':memory:' AS b /* x */ KEY ?", arguments: ["bound-attach-secret"])
      try db.execute(sql: "DETACH a; DETACH b")
    }
    #expect(trace.all.contains(KeyingStatementRedaction.redacted))
    #expect(trace.all.contains("DETACH a"))
    #expect(!trace.text.contains("glued-attach-secret"))
    #expect(!trace.text.contains("bound-attach-secret"))
  }

  @Test("an error of a keying statement keeps SQLite's fixed text for a code, which quotes nothing")
  func fixedTextsAreKept() {
    let full = String(cString: sqlite3_errstr(SQLITE_FULL))
    let export = DatabaseError(
      resultCode: .SQLITE_ERROR, message: full, sql: "SELECT sqlcipher_export('copy')")
    #expect(export.message == full, "how a full disk during an export is told apart")
    #expect(export.sql == KeyingStatementRedaction.redacted)
    let quoting = DatabaseError(
      resultCode: .SQLITE_ERROR, message: "near \"fixed-text-secret\": syntax error",
      sql: "PRAGMA key = 'x' fixed-text-secret")
    #expect(
      quoting.message == String(cString: sqlite3_errstr(SQLITE_ERROR))
        + " (details withheld: they may quote a key)")
  }

  @Test("every statement of a multi-statement SQL string is judged, and the whole string is redacted")
  func multipleStatements() throws {
    let queue = try memoryQueue(publicArguments: true)
    let trace = TraceRecorder()
    let error = try #require(throws: DatabaseError.self) {
      try queue.inDatabase { db in
        db.trace(options: [.statement, .profile]) { trace.record($0) }
        try db.execute(sql: "SELECT 1; PRAGMA/**/key='second-statement-secret'; SELECT no_such_column")
      }
    }
    #expect(error.sql == "SELECT no_such_column")
    #expect(trace.all.contains("SELECT 1"))
    #expect(trace.all.contains(KeyingStatementRedaction.redacted))
    #expect(!trace.text.contains("second-statement-secret"))

    let misuse = try #require(throws: DatabaseError.self) {
      try queue.inDatabase { db in _ = try db.makeStatement(sql: "SELECT 1; PRAGMA 'key'='misuse-secret'") }
    }
    #expect(misuse.resultCode == .SQLITE_MISUSE)
    #expect(!printedForms(misuse).contains("misuse-secret"))
  }

  // MARK: the recognizer itself

  @Test("every spelling of a keying statement is recognised")
  func recognisedSpellings() {
    let pragmas = ["key", "rekey", "hexkey", "hexrekey", "textkey", "textrekey"]
    var keying: [String] = []
    for name in pragmas {
      for spelled in [
        name, name.uppercased(), name.capitalized, "\"\(name)\"", "[\(name)]", "`\(name)`", "'\(name)'",
      ] {
        keying += [
          "PRAGMA \(spelled) = 'x'", "PRAGMA \(spelled)('x')", "PRAGMA main.\(spelled)='x'",
          "pragma \"main\" . \(spelled) ( 'x' )", "PRAGMA [aux].\(spelled) = x'00'", "PRAGMA \(spelled)",
        ]
      }
    }
    keying += [
      "  \n\t-- the key\n/* really */ PRAGMA key = 'x'", "EXPLAIN PRAGMA key = 'x'",
      "EXPLAIN QUERY PLAN PRAGMA rekey = 'x'", "explain query plan attach 'f' as a key 'x'",
      "SELECT 1; PRAGMA key='x'", "SELECT 1;PRAGMA key='x';SELECT 2", "SELECT ';'; PRAGMA key = 'x'",
      "PRAGMA other_key = 'x'", "PRAGMA main.some_future_rekey('x')",
      "ATTACH 'file' AS name KEY 'secret'", "ATTACH DATABASE 'file' AS name KEY 'secret'",
      "ATTACH ? AS name KEY ?", "attach\n'f'\nas\nn\nkey\n?", "ATTACH/**/'f'/**/AS/**/n/**/KEY/**/'x'",
      "ATTACH 'f' AS n KEY 'unterminated", "ATTACH 'f' AS n /* KEY 'x'", "ATTACH 'f' AS n KEY x'0011",
      "SELECT sqlcipher_export('x')", "select SQLCIPHER_EXPORT('enc', 'main')",
      "SELECT \"sqlcipher_export\"('x')", "PRAGMA cipher_salt", "PRAGMA cipher_salt = \"x'00'\"",
      "PRAGMA main.CIPHER_ADD_RANDOM = \"x'00'\"", "SELECT * FROM pragma_key('x')",
      "PRAGMA key = 'unterminated", "PRAGMA key = x'00", "PRAGMA key /* unterminated comment",
      "PRAGMA 'key", "PRAGMA [key", "PRAGMA cipher_version = 'x' !key", "PRAGMA \u{FEFF}key = 'x'",
      "SELECT 'x'\0PRAGMA key = 'after a NUL'", "SELECT 'oops; PRAGMA key = x",
      "PRAGMA -- key\n", "PRAGMA . key = 'x'", "PRAGMA main.'key' = 'x'", "PRAGMA \"ke\"\"y\"; PRAGMA key",
    ]
    for sql in keying {
      #expect(KeyingStatementRedaction.isKeyingStatement(sql), "\(sql.debugDescription)")
    }
  }

  @Test("statements that merely mention a key are not redacted")
  func ordinaryStatements() {
    let ordinary = [
      "SELECT 'pragma key' AS x", "CREATE TABLE key (a)", "SELECT * FROM t WHERE \"key\" = 1",
      "PRAGMA cipher_version", "PRAGMA table_info(key)", "INSERT INTO t VALUES ('ATTACH')",
      "CREATE TABLE t (id INTEGER PRIMARY KEY, key TEXT)", "PRAGMA foreign_keys = ON",
      "PRAGMA foreign_key_list(t)", "PRAGMA foreign_key_check", "PRAGMA cipher_page_size",
      "PRAGMA cipher_integrity_check", "SELECT key FROM t -- PRAGMA key = 'x'",
      "SELECT 1 /* PRAGMA key = 'x' */", "SELECT \"PRAGMA key = 'x'\"", "SELECT [pragma key]",
      "ATTACH 'keys.sqlite' AS keys", "DETACH key", "SELECT 'sqlcipher_export(1)'",
      "SELECT $key, :key, @key", "SELECT key, rekey FROM keys", "SELECT 'a;PRAGMA key=1'",
      "UPDATE keys SET key = ? WHERE key = ?", "SELECT 1 AS \"ATTACH\"", "VACUUM",
      "SELECT 'key' = 'unterminated, and nothing secret",
      "SELECT 'unterminated; PRAGMA key = 'x'", "PRAGMA \"ke\"\"y\"", "SELECT cipher_salt FROM t",
    ]
    for sql in ordinary {
      #expect(!KeyingStatementRedaction.isKeyingStatement(sql), "\(sql.debugDescription)")
    }
  }
}

/// The tokens of `sql`, each as its kind and its text.
private func tokens(_ sql: String) -> [(SQLTokenizer.Kind, String)] {
  var sql = sql
  return sql.withUTF8 { text in
    SQLTokenizer(text).map { token in
      (token.kind, String(decoding: UnsafeBufferPointer(rebasing: text[token.range]), as: UTF8.self))
    }
  }
}

/// The tokens of `sql` that are not white space or comments.
private func significantTokens(_ sql: String) -> [String] {
  tokens(sql).filter { $0.0 != .space }.map(\.1)
}

@Suite("SQLTokenizer reads SQL as SQLite does")
struct SQLTokenizerTests {
  @Test("comments and white space separate tokens, even with no space around them")
  func commentsAndSpaces() {
    #expect(significantTokens("PRAGMA/**/key") == ["PRAGMA", "key"])
    #expect(significantTokens("PRAGMA--c\nkey") == ["PRAGMA", "key"])
    #expect(significantTokens("a/* x */b -- y") == ["a", "b"])
    // The comment's closing */ is looked for from its third byte: /*/ is still open.
    #expect(tokens("a /*/ b */ c").map(\.1) == ["a", " ", "/*/ b */", " ", "c"])
    #expect(tokens("a /* open").last! == (.unterminated, "/* open"))
    // A line comment ends before its newline; a line comment at the end is complete.
    #expect(tokens("a -- c\nb").map(\.1) == ["a", " ", "-- c", "\n", "b"])
    #expect(tokens("a --").last! == (.space, "--"))
    // A byte order mark where a token starts is white space; inside a word it is part of it.
    #expect(significantTokens("PRAGMA \u{FEFF}key") == ["PRAGMA", "key"])
    #expect(significantTokens("PRAGMA\u{FEFF}key") == ["PRAGMA\u{FEFF}key"])
    // A vertical tab continues white space but can not start it.
    #expect(tokens("a \u{0B}b").map(\.0) == [.word, .space, .word])
    #expect(tokens("a\u{0B}b").map(\.0) == [.word, .illegal, .word])
  }

  @Test("strings, quoted names and blobs: doubled quotes, brackets without escapes, unterminated")
  func quotes() {
    #expect(tokens("'it''s'").map(\.0) == [.string])
    #expect(tokens("\"a\"\"b\"").map(\.0) == [.quotedName])
    #expect(tokens("`a``b`").map(\.0) == [.quotedName])
    #expect(tokens("[a]]").map(\.1) == ["[a]", "]"])
    #expect(tokens("[a]]").map(\.0) == [.quotedName, .illegal])
    #expect(tokens("[a\"b']").map(\.0) == [.quotedName])
    #expect(tokens("'open").map(\.0) == [.unterminated])
    #expect(tokens("x 'a' \"open").last! == (.unterminated, "\"open"))
    #expect(tokens("[open").map(\.0) == [.unterminated])
    #expect(tokens("x'0aFF'").map(\.0) == [.blob])
    #expect(tokens("X''").map(\.0) == [.blob])
    #expect(tokens("x'0a0'").map(\.0) == [.illegal])
    #expect(tokens("x'zz secret'").map(\.0) == [.illegal])
    #expect(tokens("x'0a").map(\.0) == [.unterminated])
    #expect(tokens("xa'b'").map(\.0) == [.word, .string])
    // SQLite reads C strings: a NUL ends what it sees, and ends an open quote.
    #expect(tokens("'a\0b'").map(\.0) == [.unterminated, .end, .word, .unterminated])
  }

  @Test("numbers, parameters, words and operators")
  func otherTokens() {
    #expect(tokens("12 1.5 .5 1e3 1E-3 0x1F 1_000").filter { $0.0 != .space }.allSatisfy { $0.0 == .number })
    #expect(tokens("1abc").map(\.0) == [.illegal])
    #expect(tokens("a.b").map(\.0) == [.word, .punctuation, .word])
    #expect(tokens("? ?12 :name @x $y #z").filter { $0.0 != .space }.allSatisfy { $0.0 == .parameter })
    // Tcl forms of a parameter: `::` inside the name, and a suffix in parentheses that
    // runs to the first space or ")", quotes included.
    #expect(tokens("$a::b(';x')").map(\.0) == [.parameter])
    #expect(tokens("$a(';x' y").map(\.0) == [.illegal, .space, .word])
    #expect(tokens(": @").map(\.0) == [.illegal, .space, .illegal])
    #expect(tokens("é_1$x").map(\.0) == [.word])
    #expect(
      significantTokens("a!=b||c<>d<=e>>f->>g==h") == [
        "a", "!=", "b", "||", "c", "<>", "d", "<=", "e", ">>", "f", "->>", "g", "==", "h",
      ])
    #expect(tokens("!").map(\.0) == [.illegal])
    #expect(tokens("\\").map(\.0) == [.illegal])
    #expect(tokens("a;b").map(\.0) == [.word, .semicolon, .word])
  }
}
