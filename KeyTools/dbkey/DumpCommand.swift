import Sealite

let dumpCommand = Command(
  name: "dump", summary: "print the schema and the rows of every table, in plaintext",
  synopsis:
    "dump DB [--format FORMAT | --json] [--key-fd N | --passphrase-fd N | --passphrase] [--name NAME] [--collection LABEL]",
  details: "Opens DB read-only and prints on standard output what Database.dumpContent prints: the schema,\n"
    + "then the rows of each table in the order of its primary key, leaving out the tables of SQLite,\n"
    + "GRDB and Sealite. An encrypted DB's values are printed in plaintext, as asked; its key never is,\n"
    + "and DB is not changed. Values are printed as they are stored, control characters included:\n"
    + "send binary content to a file or a program rather than to a terminal.\n" + CommonOptions.keyNote,
  options: [
    .option("--format", "FORMAT", "debug (the default), json, line, list or quote"), CommonOptions.json,
  ]
    + CommonOptions.databaseKey
) { arguments in
  let path = try arguments.positionals("DB")[0]
  // As in every command, --json makes the output JSON: the rows, and errors.
  let formatName = arguments.value("--format") ?? (arguments.has("--json") ? "json" : "debug")
  if arguments.has("--json") && formatName != "json" {
    throw CommandError(code: .usage, message: "--json prints the json format, not \(formatName)")
  }
  let format = try dumpFormat(named: formatName)
  try withKey(arguments, path: path) { resolved in
    var config = Configuration()
    config.key = resolved.key
    config.cipher = try cipherSettings(path: path, key: resolved.key).cipher
    // Read-only: a dump is a reading, and nothing it does may write.
    config.readonly = true
    config.observesOtherProcesses = false
    let output = BufferedStandardOutput()
    // What was dumped before a failure is printed, then the error.
    defer { output.flush() }
    try keyringCall(path: path) {
      let dbQueue = try DatabaseQueue(path: path, configuration: config)
      defer { try? dbQueue.close() }
      // One read transaction: the schema and the rows of one moment.
      try dbQueue.read { db in try db.dumpContent(format: format, to: output) }
    }
  }
}

/// The format `--format` names.
private func dumpFormat(named name: String) throws -> any DumpFormat {
  switch name {
  case "debug": return DebugDumpFormat()
  case "json": return JSONDumpFormat()
  case "line": return LineDumpFormat()
  case "list": return ListDumpFormat()
  case "quote": return QuoteDumpFormat()
  default:
    throw CommandError(code: .usage, message: "--format is debug, json, line, list or quote, not \(name)")
  }
}

/// Standard output for a dump, written in large blocks: a dump writes many
/// small strings, and a write to the descriptor each would be slow. A closed
/// standard output ends dbkey quietly, as with every other command.
private final class BufferedStandardOutput: TextOutputStream {
  private var buffer = ""
  private static let blockSize = 1 << 16

  func write(_ string: String) {
    buffer += string
    if buffer.utf8.count >= Self.blockSize { flush() }
  }

  func flush() {
    guard !buffer.isEmpty else { return }
    if !Output.write(buffer, to: 1) { Output.readerWentAway() }
    buffer = ""
  }
}
