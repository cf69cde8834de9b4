import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The database a keyring item belongs to: its canonical path and an optional name the
/// application chooses (to keep several keys for one file apart, or to name the database
/// in a keyring manager).
///
/// Two spellings of one file (relative or absolute, through symbolic links) give equal
/// values, so the key stored for a file is found whichever path reaches it. The file need
/// not exist yet: the longest existing prefix of the path is resolved and the rest is
/// appended as written (without `.` and `..`).
public struct KeyringDatabase: Sendable, Hashable {
  /// The absolute path with symbolic links resolved.
  public let canonicalPath: String
  /// The application-chosen name, or nil. An empty name counts as nil.
  public let name: String?

  /// Identifies the database at `path` (relative paths are relative to the current
  /// directory). Throws ``KeyringError/invalidDatabasePath(_:)`` for an empty path.
  public init(path: String, name: String? = nil) throws {
    guard !path.isEmpty else { throw KeyringError.invalidDatabasePath(path) }
    self.init(canonicalPath: Self.canonicalPath(path), name: name)
  }

  /// Identifies the database at a path that is canonical already (taken from
  /// another value): nothing to resolve, nothing that can fail.
  init(canonicalPath: String, name: String?) {
    self.canonicalPath = canonicalPath
    self.name = name?.isEmpty == true ? nil : name
  }

  static func canonicalPath(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let components = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    // Resolve the longest prefix that exists; realpath fails on a missing component.
    var existingCount = components.count
    var resolved = "/"
    while existingCount >= 0 {
      let prefix = "/" + components[0..<existingCount].joined(separator: "/")
      if let real = realpath(prefix, nil) {
        resolved = String(cString: real)
        free(real)
        break
      }
      existingCount -= 1
    }
    var parts = resolved.split(separator: "/").map(String.init)
    for component in components[max(existingCount, 0)...] {
      switch component {
      case ".": continue
      case "..": if !parts.isEmpty { parts.removeLast() }
      default: parts.append(component)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}
