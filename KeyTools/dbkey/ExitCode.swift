/// The exit codes of dbkey, listed in `dbkey --help`.
enum ExitCode: Int32, CaseIterable {
  case success = 0
  /// Bad command line: unknown command or option, missing argument.
  case usage = 64
  /// The key does not open the database, or the file is not a database (or
  /// not what the command expects: plaintext given as encrypted…).
  case cannotOpen = 65
  /// The database file or the keyring item does not exist.
  case notFound = 66
  /// The keyring can not be reached (no D-Bus session, no Secret Service) or is locked.
  case keyringUnavailable = 69
  /// Something went wrong that the user can not fix (a bug, an I/O failure).
  case failure = 70
  /// The output exists (and --force was not given) or can not be written.
  case cannotCreateOutput = 73
  /// Another connection holds the database locked: try again later.
  case busy = 75
  /// `verify` found a problem.
  case verificationFailed = 76

  var meaning: String {
    switch self {
    case .success: "success"
    case .usage: "bad command line"
    case .cannotOpen: "the key does not open the database, or the file is not the expected kind of database"
    case .notFound: "the database file or the keyring item does not exist"
    case .keyringUnavailable: "the keyring can not be reached, or is locked"
    case .failure: "an unexpected failure"
    case .cannotCreateOutput: "the output file exists (use --force) or can not be written"
    case .busy: "another connection holds the database locked: try again later"
    case .verificationFailed: "verification found a problem"
    }
  }
}

/// An error that ends dbkey with a message and an exit code.
struct CommandError: Error {
  let code: ExitCode
  let message: String
}
