import Sealite

let verifyCommand = Command(
  name: "verify", summary: "check page authentication (names tampered pages), WAL frames and integrity",
  synopsis:
    "verify DB [--key-fd N | --passphrase-fd N | --passphrase] [--name NAME] [--collection LABEL] [--json]",
  details: "Reads every page of DB read-only: pages that fail SQLCipher's authentication are named, and\n"
    + "SQLite's integrity check runs. Exits 76 when anything is wrong, or the file is truncated.\n"
    + CommonOptions.keyNote,
  options: CommonOptions.databaseKey + [CommonOptions.json]
) { arguments in
  let path = try arguments.positionals("DB")[0]
  let verification = try withKey(arguments, path: path) { resolved -> DatabaseVerification in
    guard let key = resolved.key else {
      throw CommandError(code: .cannotOpen, message: "\(path) is not encrypted: there is no key to verify")
    }
    do {
      return try DatabaseQueue.verifyDatabase(
        atPath: path, key: key, cipher: cipherSettings(path: path, key: key).cipher)
    } catch let error as DatabaseError
      where error.resultCode == .SQLITE_CORRUPT
      || error.extendedResultCode == .SEALITE_NOTADB_PARTIAL_PAGE
    {
      throw CommandError(code: .damaged, message: "\(path) failed verification: \(error.message ?? "")")
    } catch {
      throw ErrorMapping.commandError(error, path: path)
    }
  }
  if Output.json {
    Output.json([
      "path": path, "valid": verification.isValid, "encrypted": verification.isEncrypted,
      "tamperedPages": verification.tamperedPages, "cipherMessages": verification.cipherMessages,
      "integrityMessages": verification.integrityMessages, "walMessages": verification.walMessages,
    ])
  } else {
    Output.line(verification.isValid ? "ok" : "FAILED")
    for page in verification.tamperedPages { Output.line("tampered page: \(page)") }
    for message in verification.cipherMessages { Output.line("cipher: \(message)") }
    for message in verification.walMessages { Output.line("wal: \(message)") }
    if verification.integrityMessages != ["ok"] {
      for message in verification.integrityMessages { Output.line("integrity: \(message)") }
    }
  }
  if !verification.isValid {
    throw CommandError(code: .damaged, message: "\(path) failed verification")
  }
}
