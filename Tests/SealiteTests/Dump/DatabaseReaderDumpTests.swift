import Foundation
import Sealite
import Testing

private struct Author: TableRecord {}

/// The library database in a file, in a queue or a pool, plain or encrypted
/// (internal: a test argument).
enum DumpedReader: CaseIterable, CustomTestStringConvertible {
  case queue, pool, encryptedQueue, encryptedPool

  var testDescription: String { "\(self)" }

  var configuration: Configuration {
    switch self {
    case .queue, .pool: return Configuration()
    case .encryptedQueue, .encryptedPool: return rawKeyConfiguration()
    }
  }

  func open(_ path: String) throws -> any DatabaseWriter {
    switch self {
    case .queue, .encryptedQueue: return try DatabaseQueue(path: path, configuration: configuration)
    case .pool, .encryptedPool: return try DatabasePool(path: path, configuration: configuration)
    }
  }
}

@Suite("Dumps of queues and pools")
struct DatabaseReaderDumpTests {
  @Test("A queue or a pool dumps SQL, requests, tables, schema and content", arguments: DumpedReader.allCases)
  func dumps(_ reader: DumpedReader) throws {
    let directory = TemporaryDirectory()
    let writer = try reader.open(directory.path())
    defer { try? writer.close() }
    try writer.write(createLibrary)

    #expect(
      try dumped {
        try writer.dumpSQL("SELECT name FROM author ORDER BY id; SELECT count(*) FROM book", to: $0)
      }
        == "Octavia Butler\nUrsula K. Le Guin\n3\n")
    #expect(
      try dumped { try writer.dumpRequest(Author.order(Column("id").desc), format: .quote(), to: $0) }
        == "2,'Ursula K. Le Guin'\n1,'Octavia Butler'\n")
    #expect(
      try dumped { try writer.dumpTables(["country", "author"], format: .list(separator: ","), to: $0) }
        == "country\nDE,Germany\nFR,France\n\nauthor\n1,Octavia Butler\n2,Ursula K. Le Guin\n")
    #expect(try dumped { try writer.dumpSchema(to: $0) } == librarySchema)
    #expect(
      try dumped { try writer.dumpContent(to: $0) } == librarySchema + """

        author
        1|Octavia Butler
        2|Ursula K. Le Guin

        book
        1|2|The Dispossessed
        2||Anonymous Tales
        3|1|Kindred

        country
        DE|Germany
        FR|France

        """)
    // From inside another access, as when debugging one.
    let nested = try writer.read { _ in try dumped { try writer.dumpTables(["country"], to: $0) } }
    #expect(nested == "DE|Germany\nFR|France\n")
  }

  @Test("A dump of an encrypted database changes no byte of its files and never prints the key")
  func encryptedDumpChangesNothing() throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let dbPool = try DatabasePool(path: path, configuration: rawKeyConfiguration())
    try dbPool.write(createLibrary)
    let files = [path, path + "-wal"]
    let before = files.map(fileBytes)
    var text = ""
    for format in [
      DebugDumpFormat(), JSONDumpFormat(), LineDumpFormat(), ListDumpFormat(), QuoteDumpFormat(),
    ]
      as [any DumpFormat]
    {
      text += try dumped { try dbPool.dumpContent(format: format, to: $0) }
    }
    #expect(files.map(fileBytes) == before)
    // The plaintext is printed, because it was asked for; the key is not.
    #expect(text.contains("Octavia Butler"))
    for keyText in ["4242424242424242", "QkJCQkJC"] { #expect(!text.contains(keyText)) }
    try dbPool.close()
    // The file itself holds no plaintext.
    #expect(try #require(fileBytes(path)).range(of: Data("Octavia Butler".utf8)) == nil)
  }
}
