import Foundation
import Sealite
import SealiteKeyring

/// Fails at once (before any prompt, any key or any file) when OUT can not be
/// a new file: it exists without --force, or it is a symbolic link or a
/// directory. The library checks again, and more, as it writes.
func requireNewOutput(_ path: String, overwrite: Bool) throws {
  var info = stat()
  guard lstat(path, &info) == 0 else { return }
  switch info.st_mode & S_IFMT {
  case S_IFLNK:
    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
    throw CommandError(
      code: .cannotCreateOutput,
      message: "\(path) is a symbolic link (to \(target)): dbkey never writes through one; give the path "
        + "of the file itself")
  case S_IFDIR:
    throw CommandError(code: .cannotCreateOutput, message: "cannot create \(path): it is a directory")
  default:
    guard overwrite else {
      throw CommandError(
        code: .cannotCreateOutput,
        message: "\(path) already exists: refusing to overwrite it (--force replaces it)")
    }
  }
}

let exportCommand = Command(
  name: "export",
  summary: "copy DB into a new file OUT: plaintext, with a new key or passphrase, or with DB's key",
  synopsis:
    "export DB OUT [--plaintext | --new-key | --new-passphrase-fd N | --new-passphrase] [--force]\n"
    + "       [--key-fd N | --passphrase-fd N | --passphrase] [--name NAME] [--new-name NAME]\n"
    + "       [--collection LABEL] [--json]",
  details: "DB's key comes from the keyring unless given on a descriptor or typed. OUT gets DB's key\n"
    + "unless --plaintext, --new-key or --new-passphrase(-fd) says otherwise; a keyed OUT has its key\n"
    + "stored in the keyring. OUT is written under a temporary name beside it (mode 0600), checked,\n"
    + "and renamed into place: an interruption leaves OUT and its key as they were. OUT's key is\n"
    + "stored as a pending item first and replaces OUT's old key only once the new file is in place.\n"
    + CommonOptions.keyNote,
  options: [
    .flag("--plaintext", "OUT is not encrypted"),
    .flag("--new-key", "OUT gets a new random raw key"),
  ] + CommonOptions.newPassphrase(of: "OUT") + [
    .flag("--force", "replace an existing OUT (never a symbolic link or a directory)"),
    .option("--new-name", "NAME", "the name of OUT's keyring item"),
  ] + CommonOptions.databaseKey + [CommonOptions.json]
) { arguments in
  let paths = try arguments.positionals("DB", "OUT")
  try arguments.requireAtMostOne(of: ["--plaintext", "--new-key", "--new-passphrase-fd", "--new-passphrase"])
  let force = arguments.has("--force")
  try requireNewOutput(paths[1], overwrite: force)
  let destination = try KeyringEntry(arguments, path: paths[1], nameOption: "--new-name")
  // OUT's new key, asked for once (after DB's passphrase), whatever the retry of withKey does.
  var newKey: DatabaseKey??
  let destinationKey = try withKey(arguments, path: paths[0]) { source -> DatabaseKey? in
    if newKey == nil {
      newKey = .some(
        arguments.has("--plaintext")
          ? nil : arguments.has("--new-key") ? .randomRaw() : try newPassphrase(arguments, for: paths[1]))
    }
    let destinationKey = arguments.has("--plaintext") ? nil : (newKey! ?? source.key)
    let cipher = try cipherSettings(path: paths[0], key: source.key).cipher
    try Interruption.working { cancellation in
      try keyringCall(path: paths[0]) {
        try TerminalProgress.run("exporting \(paths[0])") { progress in
          let report: @Sendable (DatabaseExportProgress) -> Void = { progress.update($0.fractionCompleted) }
          if let destinationKey {
            try destination.keyring.exportDatabase(
              atPath: paths[0], key: source.key, cipher: cipher, to: destination.database,
              destinationKey: destinationKey, overwrite: force, progress: report, cancellation: cancellation)
          } else {
            // A plaintext copy has no key: the keyring is not needed.
            try DatabaseQueue.exportDatabase(
              atPath: paths[0], key: source.key, cipher: cipher, to: paths[1], destinationKey: nil,
              overwrite: force, progress: report, cancellation: cancellation)
          }
        }
      }
    }
    return destinationKey
  }
  Output.result(
    "exported \(paths[0]) to \(paths[1])"
      + (destinationKey == nil ? " (plaintext)" : ", its key is in the keyring"),
    [
      "exported": paths[0], "to": paths[1], "encrypted": destinationKey != nil,
      "keyKind": destinationKey.map { keyKindName($0.kind) } ?? "none",
    ])
}

let importCommand = Command(
  name: "import",
  summary: "encrypt a plaintext SQLite database into a new file OUT, its key kept in the keyring",
  synopsis:
    "import PLAIN OUT [--new-passphrase-fd N | --new-passphrase] [--name NAME] [--collection LABEL]\n"
    + "       [--force] [--json]",
  details: "OUT gets a new random raw key, or the passphrase given, stored in the keyring. PLAIN is only\n"
    + "read. OUT is written under a temporary name beside it (mode 0600), checked, and renamed into\n"
    + "place; its key is stored as a pending item first and becomes OUT's key once the file is in\n"
    + "place: an interruption leaves OUT and its key as they were. A key the keyring holds for OUT\n"
    + "that does not open the file there (the key of a database that was moved away) is never\n"
    + "replaced.\n" + CommonOptions.keyNote,
  options: CommonOptions.newPassphrase(of: "OUT") + [
    .flag("--force", "replace an existing OUT (never a symbolic link or a directory)"),
    .option("--name", "NAME", "the name of OUT's keyring item"), CommonOptions.collection, CommonOptions.json,
  ]
) { arguments in
  let paths = try arguments.positionals("PLAIN", "OUT")
  let force = arguments.has("--force")
  try requireDatabaseFile(paths[0])
  guard isPlaintextDatabase(paths[0]) else {
    throw CommandError(code: .cannotOpen, message: "\(paths[0]) is not a plaintext SQLite database")
  }
  try requireNewOutput(paths[1], overwrite: force)
  let key = try newPassphrase(arguments, for: paths[1]) ?? .randomRaw()
  let destination = try KeyringEntry(arguments, path: paths[1])
  try Interruption.working { cancellation in
    try keyringCall(path: paths[0]) {
      try TerminalProgress.run("importing \(paths[0])") { progress in
        try destination.keyring.exportDatabase(
          atPath: paths[0], key: nil, to: destination.database, destinationKey: key, overwrite: force,
          progress: { progress.update($0.fractionCompleted) }, cancellation: cancellation)
      }
    }
  }
  Output.result(
    "imported \(paths[0]) into \(paths[1]), its key is in the keyring",
    ["imported": paths[0], "to": paths[1], "keyKind": keyKindName(key.kind)])
}

/// The new passphrase given with --new-passphrase-fd or --new-passphrase, or nil.
func newPassphrase(_ arguments: Arguments, for path: String) throws -> DatabaseKey? {
  try KeySource.key(
    arguments, keyOption: nil, passphraseOption: "--new-passphrase-fd", promptFlag: "--new-passphrase",
    prompt: "New passphrase for \(path): ", confirm: true)
}
