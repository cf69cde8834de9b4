// Runs keyring steps in a fresh process and prints one line per step, for the tests that
// need a D-Bus environment of their own: no session bus, a bus without a Secret Service,
// or a throwaway keyring that may be locked for good.
//
//     sealite-keyring-probe DATABASE-PATH STEP...
//
// Steps: store-random (stores a new random raw key; the key is never printed), lookup,
// delete, items, lock, unlock. Each prints "STEP: ok [detail]" or "STEP: error CASE".
// Nothing secret is passed on the command line or printed.
import Foundation
import Sealite
import SealiteKeyring

func caseName(_ error: any Error) -> String {
  guard let error = error as? KeyringError else { return "other" }
  switch error {
  case .noSessionBus: return "noSessionBus"
  case .noSecretService: return "noSecretService"
  case .collectionLocked: return "collectionLocked"
  case .promptDismissed: return "promptDismissed"
  case .itemNotFound: return "itemNotFound"
  case .collectionNotFound: return "collectionNotFound"
  case .invalidDatabasePath: return "invalidDatabasePath"
  case .keyWouldBeReplaced: return "keyWouldBeReplaced"
  case .keyStillNeeded: return "keyStillNeeded"
  case .failure: return "failure"
  }
}

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first, arguments.count >= 2 else {
  FileHandle.standardError.write(Data("usage: sealite-keyring-probe DATABASE-PATH STEP...\n".utf8))
  exit(2)
}

let keyring = Keyring()
for step in arguments.dropFirst() {
  do {
    let database = try KeyringDatabase(path: path)
    var detail = ""
    switch step {
    case "store-random":
      try keyring.store(.randomRaw(), for: database)
    case "lookup":
      detail = " \(try keyring.key(for: database).kind)"
    case "delete":
      try keyring.deleteKey(for: database)
    case "items":
      let items = try keyring.items().map { "\($0.label)|\($0.attributes.sorted { $0.key < $1.key })" }
      detail = " \(items.sorted())"
    case "lock":
      try keyring.lock()
    case "unlock":
      try keyring.unlock()
    default:
      print("\(step): unknown step")
      exit(2)
    }
    print("\(step): ok\(detail)")
  } catch {
    print("\(step): error \(caseName(error))")
    FileHandle.standardError.write(Data("\(step): \(error)\n".utf8))
  }
}
