import Foundation
import Sealite
import Testing

/// The rows of `value`, in the order of their names, in `format`.
private func dumpedValues(_ format: some DumpFormat) throws -> String {
  try makeQueue(createValuesTable).read { db throws in
    try dumped { try db.dumpSQL("SELECT name, value FROM value ORDER BY name", format: format, to: $0) }
  }
}

/// Three statements, two with rows, one without a column, and one with
/// columns but no row.
private let statements: SQL = """
  CREATE TABLE t(a, b);
  INSERT INTO t VALUES (1, 'one'), (2, NULL);
  SELECT a, b FROM t ORDER BY a;
  SELECT b FROM t WHERE a = 1;
  SELECT a FROM t WHERE 0;
  """

private func dumpedStatements(_ format: some DumpFormat) throws -> String {
  try DatabaseQueue().write { db in try dumped { try db.dumpSQL(statements, format: format, to: $0) } }
}

@Suite("Dump formats")
struct DumpFormatTests {
  @Test("debug prints blobs as text, a UUID or an SQL literal, and NULL as nothing")
  func debugValues() throws {
    #expect(
      try dumpedValues(.debug()) == """
        blob: apostrophe|it's
        blob: empty|
        blob: invalid utf8|X'FF'
        blob: text|Hi
        blob: utf8|café
        blob: uuid|01234567-89AB-CDEF-0123-456789ABCDEF
        double: -0.5|-0.5
        double: 3.0|3.0
        integer: 42|42
        integer: min|-9223372036854775808
        null|
        text: apostrophe|it's
        text: backslash|a\\b
        text: empty|
        text: newline|a
        b
        text: quote|say "hi"
        text: slash|a/b
        text: unicode|héllo 🌍

        """)
  }

  @Test("debug and list: header, separator and NULL text are options; each statement has its header")
  func debugAndListOptions() throws {
    let expected = """
      a;b
      1;one
      2;NULL
      b
      one

      """
    #expect(try dumpedStatements(.debug(header: true, separator: ";", nullValue: "NULL")) == expected)
    #expect(try dumpedStatements(.list(header: true, separator: ";", nullValue: "NULL")) == expected)
    let plain = "1|one\n2|\none\n"
    #expect(try dumpedStatements(.debug()) == plain)
    #expect(try dumpedStatements(.list()) == plain)
    #expect(try dumpedStatements(DebugDumpFormat()) == plain)
    #expect(try dumpedStatements(ListDumpFormat()) == plain)
  }

  @Test("list prints blobs as UTF-8 text, invalid bytes as U+FFFD")
  func listValues() throws {
    let uuidText = "\u{01}#Eg\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{01}#Eg\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"
    #expect(
      try dumpedValues(.list()) == """
        blob: apostrophe|it's
        blob: empty|
        blob: invalid utf8|\u{FFFD}
        blob: text|Hi
        blob: utf8|café
        blob: uuid|\(uuidText)
        double: -0.5|-0.5
        double: 3.0|3.0
        integer: 42|42
        integer: min|-9223372036854775808
        null|
        text: apostrophe|it's
        text: backslash|a\\b
        text: empty|
        text: newline|a
        b
        text: quote|say "hi"
        text: slash|a/b
        text: unicode|héllo 🌍

        """)
  }

  @Test("quote prints SQL literals; its header quotes the column names")
  func quoteValues() throws {
    #expect(
      try dumpedValues(.quote()) == """
        'blob: apostrophe',X'69742773'
        'blob: empty',X''
        'blob: invalid utf8',X'FF'
        'blob: text',X'4869'
        'blob: utf8',X'636166C3A9'
        'blob: uuid',X'0123456789ABCDEF0123456789ABCDEF'
        'double: -0.5',-0.5
        'double: 3.0',3.0
        'integer: 42',42
        'integer: min',-9223372036854775808
        'null',NULL
        'text: apostrophe','it''s'
        'text: backslash','a\\b'
        'text: empty',''
        'text: newline','a
        b'
        'text: quote','say "hi"'
        'text: slash','a/b'
        'text: unicode','héllo 🌍'

        """)
    #expect(
      try dumpedStatements(.quote(header: true, separator: " ")) == """
        'a' 'b'
        1 'one'
        2 NULL
        'b'
        'one'

        """)
  }

  @Test("line prints a value per line, names aligned right, a blank line between rows and statements")
  func lineValues() throws {
    let values = try dumpedValues(.line())
    #expect(
      values.hasPrefix(
        """
         name = blob: apostrophe
        value = it's

         name = blob: empty
        value = \n\

         name = blob: invalid utf8
        value = \u{FFFD}

        """))
    #expect(
      values.hasSuffix(
        """
         name = null
        value = \n\

         name = text: apostrophe
        value = it's

         name = text: backslash
        value = a\\b

         name = text: empty
        value = \n\

         name = text: newline
        value = a
        b

         name = text: quote
        value = say "hi"

         name = text: slash
        value = a/b

         name = text: unicode
        value = héllo 🌍

        """))
    #expect(
      try dumpedStatements(.line(nullValue: "NULL")) == """
        a = 1
        b = one

        a = 2
        b = NULL

        b = one

        """)
  }

  @Test("json prints an array per statement, blobs in base64, [] for columns without rows")
  func jsonValues() throws {
    #expect(
      try dumpedValues(.json()) == """
        [{"name":"blob: apostrophe","value":"aXQncw=="},
        {"name":"blob: empty","value":""},
        {"name":"blob: invalid utf8","value":"/w=="},
        {"name":"blob: text","value":"SGk="},
        {"name":"blob: utf8","value":"Y2Fmw6k="},
        {"name":"blob: uuid","value":"ASNFZ4mrze8BI0VniavN7w=="},
        {"name":"double: -0.5","value":-0.5},
        {"name":"double: 3.0","value":3},
        {"name":"integer: 42","value":42},
        {"name":"integer: min","value":-9223372036854775808},
        {"name":"null","value":null},
        {"name":"text: apostrophe","value":"it's"},
        {"name":"text: backslash","value":"a\\\\b"},
        {"name":"text: empty","value":""},
        {"name":"text: newline","value":"a\\nb"},
        {"name":"text: quote","value":"say \\"hi\\""},
        {"name":"text: slash","value":"a/b"},
        {"name":"text: unicode","value":"héllo 🌍"}]

        """)
    #expect(
      try dumpedStatements(.json()) == """
        [{"a":1,"b":"one"},
        {"a":2,"b":null}]
        [{"b":"one"}]
        []

        """)
  }

  @Test("json with a pretty-printing encoder puts each value on a line; infinities follow the encoder")
  func jsonPrettyPrinted() throws {
    let encoder = JSONDumpFormat.defaultEncoder
    encoder.outputFormatting = .prettyPrinted
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "NaN")
    let text = try DatabaseQueue().read { db throws in
      try dumped {
        try db.dumpSQL(
          "SELECT 1 AS id, 9e999 AS x UNION ALL SELECT 2, -9e999", format: .json(encoder: encoder), to: $0)
      }
    }
    #expect(
      text == """
        [
          {
            "id":1,
            "x":"+∞"
          },
          {
            "id":2,
            "x":"-∞"
          }
        ]

        """)
    // The default encoder prints infinities as strings too.
    let plain = try DatabaseQueue().read { db throws in
      try dumped { try db.dumpSQL("SELECT 9e999 AS x", format: JSONDumpFormat(), to: $0) }
    }
    #expect(plain == "[{\"x\":\"inf\"}]\n")
  }

  @Test("Duplicate column names are printed twice; columns named grdb_ or sealite_ are not")
  func columnNames() throws {
    try DatabaseQueue().read { db throws in
      let sql: SQL = "SELECT 1 AS a, 'x' AS a, 2 AS grdb_hidden, 3 AS sealite_hidden"
      #expect(try dumped { try db.dumpSQL(sql, format: .debug(header: true), to: $0) } == "a|a\n1|x\n")
      #expect(try dumped { try db.dumpSQL(sql, format: .json(), to: $0) } == "[{\"a\":1,\"a\":\"x\"}]\n")
      #expect(try dumped { try db.dumpSQL(sql, format: .line(), to: $0) } == "a = 1\na = x\n")
      #expect(try dumped { try db.dumpSQL(sql, format: .quote(header: true), to: $0) } == "'a','a'\n1,'x'\n")
    }
  }

  @Test("Statements without rows print nothing in every format but json")
  func emptyResults() throws {
    try DatabaseQueue().write { db throws in
      let formats: [any DumpFormat] = [
        DebugDumpFormat(header: true), ListDumpFormat(header: true), LineDumpFormat(),
        QuoteDumpFormat(header: true),
      ]
      for format in formats {
        #expect(try dumped { try db.dumpSQL("SELECT 1 AS a WHERE 0", format: format, to: $0) } == "")
        #expect(
          try dumped { try db.dumpSQL("CREATE TABLE IF NOT EXISTS t(a)", format: format, to: $0) } == "")
      }
      #expect(try dumped { try db.dumpSQL("CREATE TABLE IF NOT EXISTS t(a)", format: .json(), to: $0) } == "")
    }
  }

  @Test("A custom format is told of each row, then of the end of each statement")
  func customFormat() throws {
    struct CountFormat: DumpFormat {
      var count = 0
      mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        count += 1
      }
      mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        stream.write("\(count) rows\n")
        stream.margin()
      }
    }
    let text = try DatabaseQueue().read { db throws in
      try dumped { try db.dumpSQL("SELECT 1 UNION ALL SELECT 2; SELECT 3", format: CountFormat(), to: $0) }
    }
    // A copy of the format per statement; the margin becomes a line before
    // the next text, and none is left at the end.
    #expect(text == "2 rows\n\n1 rows\n")
  }

  @Test("A failing statement throws after the rows of those before it")
  func failingStatement() throws {
    try DatabaseQueue().read { db throws in
      let output = DumpOutput()
      #expect(throws: DatabaseError.self) {
        try db.dumpSQL("SELECT 'before'; SELECT FROM nowhere", to: output)
      }
      #expect(output.text == "before\n")
    }
  }
}
