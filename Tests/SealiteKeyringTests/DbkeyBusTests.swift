import Foundation
import Sealite
import Testing

// dbkey where the keyring can not be reached at all (no session bus, and no way
// to start one), and with a locked collection: what the operator reads then
// must say what to do, in words, never which library call failed.

/// The `dbkey` tool, built next to the test bundle.
private var dbkeyPath: String {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("dbkey")
    .path
}

/// The lines of `output` that report a command: command name to the rest.
private func commandResults(_ output: String) -> [String: String] {
  var results: [String: String] = [:]
  for line in output.split(separator: "\n") {
    let parts = line.components(separatedBy: " => ")
    if parts.count == 2 { results[parts[0]] = parts[1] }
  }
  return results
}

@Suite("dbkey without any session bus, and with a locked keyring (child environments)")
struct DbkeyBusTests {
  @Test(
    "with no session bus and no dbus-launch, info and init exit 69, name DBUS_SESSION_BUS_ADDRESS, and create nothing"
  )
  func noSessionBusAtAll() async throws {
    let path = uniqueDatabasePath()
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    defer { try? FileManager.default.removeItem(at: directory) }
    var config = Configuration()
    config.key = try .raw(Data(repeating: 0x42, count: 32))
    try await DatabaseQueue(path: path, configuration: config).write { db in
      try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('secret')")
    }
    let plain = directory.appendingPathComponent("plain.sqlite").path
    try await DatabaseQueue(path: plain).write { db in try db.execute(sql: "CREATE TABLE t (a)") }
    let runtime = directory.appendingPathComponent("runtime")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: false)
    let namesBefore = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    let bytesBefore = FileManager.default.contents(atPath: path)
    // Nowhere to find a bus: no address, an empty runtime directory (no
    // XDG_RUNTIME_DIR/bus), no X display to autolaunch on, and no dbus-launch
    // on the PATH (dbkey itself is called by its absolute path).
    let environment: [String: String?] = [
      "DBUS_SESSION_BUS_ADDRESS": nil, "DBUS_STARTER_ADDRESS": nil, "DISPLAY": nil, "WAYLAND_DISPLAY": nil,
      "XDG_RUNTIME_DIR": runtime.path, "PATH": "/nonexistent",
    ]
    let new = directory.appendingPathComponent("new.sqlite").path
    let out = directory.appendingPathComponent("out.sqlite").path
    // Every command that needs the keyring (info and init, which an operator
    // tries first, and the others).
    let commands: [[String]] = [
      ["info", path], ["init", new], ["verify", path], ["rekey", path], ["recover", path], ["migrate", path],
      ["export", path, out, "--new-key"], ["import", plain, out], ["watch", path, "--count", "1"],
      ["keyring", "list"], ["keyring", "forget", path, "--force"],
      ["keyring", "export-key", path, "--to-fd", "1"],
    ]
    for arguments in commands {
      let result = try await runToEnd(dbkeyPath, arguments, environment: environment)
      #expect(result.status == 69, "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("no D-Bus session bus is reachable"), "\(arguments): \(result.stderr)")
      #expect(result.stderr.contains("DBUS_SESSION_BUS_ADDRESS"), "\(arguments): \(result.stderr)")
      #expect(!result.stderr.contains("Failed to execute"), "\(arguments): \(result.stderr)")
      #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == namesBefore)
    #expect(try FileManager.default.contentsOfDirectory(atPath: runtime.path).isEmpty)
    #expect(FileManager.default.contents(atPath: path) == bytesBefore)

    // A plaintext database needs no key, so no keyring.
    let text = try await runToEnd(dbkeyPath, ["info", plain], environment: environment)
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("keyKind: none"), "\(text.stdout)")
    let json = try await runToEnd(dbkeyPath, ["info", plain, "--json"], environment: environment)
    #expect(json.status == 0, "\(json.stderr)")
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["keyKind"] as? String == "none", "\(json.stdout)")
    #expect(object?["encrypted"] as? Bool == false, "\(json.stdout)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == namesBefore)
  }

  @Test("with the collection locked, every command says it is locked, and no message names a library API")
  func lockedMessages() async throws {
    let path = uniqueDatabasePath()
    defer {
      try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
    // A throwaway keyring of its own (scripts/with-keyring inside this one's
    // session): the shared one must stay unlocked for the tests running in
    // parallel. The key is escrowed to a file first, so that the commands that
    // take a key can be given the right one.
    let script = #"""
      DBKEY="$1"; PROBE="$2"; DB="$3"
      "$DBKEY" init "$DB" >/dev/null || exit 1
      "$DBKEY" keyring export-key "$DB" --to-fd 3 3>"$DB.escrow" >/dev/null || exit 1
      sed 's/.*://' "$DB.escrow" > "$DB.key"
      "$DBKEY" export "$DB" "$DB.plain" --plaintext >/dev/null || exit 1
      cp "$DB" "$DB.copy"
      "$PROBE" "$DB" lock
      run() {
        name="$1"; shift
        "$DBKEY" "$@" <"$DB.key" >/dev/null 2>"$DB.err" 3<"$DB.escrow"
        echo "$name => $? $(tr '\n' ' ' < "$DB.err")"
      }
      run info info "$DB"
      run verify verify "$DB"
      run rekey rekey "$DB"
      run recover recover "$DB"
      run migrate migrate "$DB"
      run export export "$DB" "$DB.out" --new-key
      run import import "$DB.plain" "$DB.imported"
      run init init "$DB.new"
      run watch watch "$DB" --count 1
      "$DBKEY" keyring list 2>&1 | grep -c -F "$DB" | sed 's/^/listed: /'
      run store keyring store "$DB" --key-fd 0
      run forget keyring forget "$DB" --force
      run move keyring move "$DB" "$DB.copy" --force
      run export-key keyring export-key "$DB" --to-fd 3
      run import-key keyring import-key "$DB" --from-fd 3
      ls "$DB.out" "$DB.imported" "$DB.new" 2>/dev/null | sed 's/^/left: /'
      """#
    let result = try await runToEnd(
      withKeyringPath, ["/bin/sh", "-c", script, "sh", dbkeyPath, probePath, path])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("lock: ok"), "\(result.stdout)")
    let results = commandResults(result.stdout)
    #expect(results.count == 14, "\(result.stdout)")
    // A list needs no secret: the Secret Service shows a locked collection's
    // labels and attributes, so the list still names the database.
    #expect(result.stdout.contains("listed: 1\n"), "\(result.stdout)")
    for (command, outcome) in results {
      #expect(outcome.hasPrefix("69 dbkey: "), "\(command): \(outcome)")
      #expect(outcome.contains("locked"), "\(command): \(outcome)")
      #expect(!outcome.contains("Keyring."), "\(command): \(outcome)")
      #expect(!outcome.contains("()"), "\(command): \(outcome)")
    }
    #expect(!result.stdout.contains("left: "), "\(result.stdout)")
  }
}
