import Foundation
import Sealite

let infoCommand = Command(
  name: "info", summary: "cipher settings, format, page size and count, journal mode, key kind",
  synopsis:
    "info DB [--key-fd N | --passphrase-fd N | --passphrase] [--name NAME] [--collection LABEL] [--json]",
  details: "Opens DB read-only and describes it. DB's key comes from the keyring unless given on a\n"
    + "descriptor or typed; a plaintext database needs no key and no keyring.\n" + CommonOptions.keyNote,
  options: CommonOptions.databaseKey + [CommonOptions.json]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  var info: [String: Any] = try withKey(arguments, path: path) { resolved in
    let (format, cipher) = try cipherSettings(path: path, key: resolved.key)
    var config = Configuration()
    config.key = resolved.key
    config.cipher = cipher
    config.readonly = true
    config.observesOtherProcesses = false
    var info: [String: Any] = try keyringCall(path: path) {
      let dbQueue = try DatabaseQueue(path: path, configuration: config)
      defer { try? dbQueue.close() }
      return try dbQueue.read { db in
        var info: [String: Any] = [:]
        info["pageSize"] = try pragmaInteger(db, "page_size")
        info["pageCount"] = try pragmaInteger(db, "page_count")
        info["journalMode"] = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? ""
        info["userVersion"] = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        var settings: [String: Any] = [:]
        for (name, value) in try db.cipherSettings() {
          settings[camelCase(name)] = Int(value) ?? value
        }
        if !settings.isEmpty { info["cipher"] = settings }
        return info
      }
    }
    info["path"] = path
    info["encrypted"] = resolved.key != nil
    info["keyKind"] = resolved.kind
    info["keySource"] = resolved.source
    if let format { info["cipherFormat"] = format }
    return info
  }
  if Output.json {
    Output.json(info)
    return
  }
  for name in info.keys.sorted() {
    if let settings = info[name] as? [String: Any] {
      for setting in settings.keys.sorted() { Output.line("\(name).\(setting): \(settings[setting]!)") }
    } else {
      Output.line("\(name): \(info[name]!)")
    }
  }
}

/// `cipher_page_size` → `pageSize`, `kdf_iter` → `kdfIterations`: JSON keys in one casing.
func camelCase(_ pragma: String) -> String {
  let known = ["kdf_iter": "kdfIterations", "cipher_version": "version", "cipher_provider": "provider"]
  if let name = known[pragma] { return name }
  let words = pragma.split(separator: "_").map(String.init).drop { $0 == "cipher" }
  guard let first = words.first else { return pragma }
  return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

/// An integer pragma: SQLCipher answers `page_size` of a keyed database as text.
func pragmaInteger(_ db: Database, _ name: String) throws -> Int {
  guard let value = try DatabaseValue.fetchOne(db, sql: "PRAGMA \(name)") else { return 0 }
  return Int.fromDatabaseValue(value) ?? String.fromDatabaseValue(value).flatMap { Int($0) } ?? 0
}
