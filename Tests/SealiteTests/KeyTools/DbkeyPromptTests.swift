import Foundation
import Sealite
import Testing

/// Types `answers` at dbkey's prompts on a terminal, each once `prompt` shows
/// (typing earlier would be echoed: echo goes off only when dbkey asks), and
/// returns the exit status and everything the terminal showed.
private func typeAtPrompts(_ arguments: [String], _ answers: [(prompt: String, line: String)]) async throws
  -> (status: Int32?, screen: String)
{
  let session = try SpawnedProcess.onTerminal(dbkeyPath, arguments)
  var offset = 0
  for (prompt, line) in answers {
    let shown = await session.waitForText(prompt, after: offset)
    #expect(shown != nil, "no prompt \(prompt): \(session.text)")
    offset += shown?.count ?? 0
    session.send(line + "\n")
  }
  let status = await session.waitForExit()
  return (status, session.text)
}

@Suite("dbkey asks for passphrases on the terminal, with echo off")
struct DbkeyPromptTests {
  @Test("rekey --new-passphrase asks twice without echo; the typed passphrase opens the database")
  func rekeyPrompt() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    let typed = "typed on a terminal 1"
    let (status, screen) = try await typeAtPrompts(
      ["rekey", path, "--new-passphrase"], [("New passphrase for \(path): ", typed), ("Repeat it: ", typed)])
    #expect(status == 0, "\(screen)")
    // Nothing typed appeared on the terminal, and the prompts did.
    #expect(!screen.contains("typed on"))
    #expect(screen.contains("rekeyed \(path)"))
    var config = Configuration()
    config.key = .passphrase(typed)
    #expect(
      try await DatabaseQueue(path: path, configuration: config).read { db in
        try Int.fetchOne(db, sql: "SELECT 1")
      } == 1)
    // The keyring holds the typed passphrase.
    #expect(try await dbkey(["verify", path]).status == 0)
  }

  @Test("two different passphrases exit 64 and leave the file and the keyring as they were")
  func mismatch() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    let bytes = fileBytes(path)
    let itemsBefore = try await items(in: directory)
    let (status, screen) = try await typeAtPrompts(
      ["rekey", path, "--new-passphrase"], [("New passphrase", "first try"), ("Repeat it: ", "second try")])
    #expect(status == 64)
    #expect(screen.contains("differ"))
    #expect(!screen.contains("try"))
    #expect(fileBytes(path) == bytes)
    #expect(try await items(in: directory) == itemsBefore)
    #expect(try await dbkey(["verify", path]).status == 0)
  }

  @Test("info --passphrase asks once for DB's passphrase; export --passphrase asks twice for OUT's")
  func infoAndExport() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = Configuration()
    config.key = .passphrase("source secret")
    try await DatabaseQueue(path: path, configuration: config).write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES ('row')")
    }
    let info = try await typeAtPrompts(
      ["info", path, "--passphrase"], [("Passphrase of \(path): ", "source secret")])
    #expect(info.status == 0, "\(info.screen)")
    #expect(info.screen.contains("passphrase typed on the terminal"))
    #expect(!info.screen.contains("source secret"))
    let wrong = try await typeAtPrompts(["info", path, "--passphrase"], [("Passphrase of", "not it")])
    #expect(wrong.status == 65, "\(wrong.screen)")

    let out = directory.path("copy.sqlite")
    let export = try await typeAtPrompts(
      ["export", path, out, "--passphrase", "--new-passphrase"],
      [
        ("Passphrase of \(path): ", "source secret"), ("New passphrase for \(out): ", "copy secret"),
        ("Repeat it: ", "copy secret"),
      ])
    #expect(export.status == 0, "\(export.screen)")
    #expect(!export.screen.contains("secret"))
    config.key = .passphrase("copy secret")
    #expect(
      try await DatabaseQueue(path: out, configuration: config).read { db in
        try String.fetchAll(db, sql: "SELECT x FROM t")
      } == ["row"])
  }

  @Test("--passphrase without a terminal is a usage error that names the descriptor option")
  func noTerminal() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    let bytes = fileBytes(path)
    // setsid: a new session, with no controlling terminal to fall back on.
    let result = try await runProcess(
      "/usr/bin/setsid", ["--wait", dbkeyPath, "rekey", path, "--new-passphrase"], input: "")
    #expect(result.status == 64, "\(result.stderr)")
    #expect(result.stderr.contains("no terminal") && result.stderr.contains("--new-passphrase-fd"))
    #expect(fileBytes(path) == bytes)
    #expect(try await dbkey(["verify", path]).status == 0)
    // Both ways at once is a usage error too.
    let both = try await runProcess(
      "/usr/bin/setsid", ["--wait", dbkeyPath, "info", path, "--passphrase", "--passphrase-fd", "0"],
      input: "x\n")
    #expect(both.status == 64 && both.stderr.contains("choose one"))
  }
}

@Suite("dbkey shows progress on a terminal, and only there")
struct DbkeyProgressTests {
  @Test("export, import and rekey draw a status line on a terminal; on a pipe, standard error stays empty")
  func progressLines() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    var config = Configuration()
    config.key = try .raw(Data(repeating: 0x42, count: 32))
    try await DatabaseQueue(path: path, configuration: config).write { db in
      try db.execute(sql: "CREATE TABLE t(x); INSERT INTO t VALUES (randomblob(100000))")
    }
    let keyLine = String(repeating: "42", count: 32) + "\n"
    #expect(try await dbkey(["keyring", "store", path, "--key-fd", "0"], input: keyLine).status == 0)

    let copy = directory.path("copy.sqlite")
    let export = try await typeAtPrompts(["export", path, copy, "--new-key"], [])
    #expect(export.status == 0, "\(export.screen)")
    #expect(export.screen.contains("exporting \(path)") && export.screen.contains("done in"))
    let rekey = try await typeAtPrompts(["rekey", copy], [])
    #expect(rekey.status == 0, "\(rekey.screen)")
    #expect(rekey.screen.contains("re-encrypting \(copy)") && rekey.screen.contains("done in"))

    // Scripts get the result lines only.
    let piped = try await dbkey(["export", path, directory.path("piped.sqlite"), "--new-key"])
    #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    #expect(!piped.stdout.contains("exporting"))
    let plain = directory.path("plain.sqlite")
    #expect(try await dbkey(["export", path, plain, "--plaintext"]).status == 0)
    let imported = try await typeAtPrompts(["import", plain, directory.path("imported.sqlite")], [])
    #expect(imported.status == 0 && imported.screen.contains("importing \(plain)"), "\(imported.screen)")
  }
}
