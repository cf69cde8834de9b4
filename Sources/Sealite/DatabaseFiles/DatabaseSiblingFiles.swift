import Foundation

/// The files Sealite keeps beside a database during whole-file operations, all
/// named after it and hidden: `.NAME.sealite-lock` (``DatabaseFileLock``) and
/// `.NAME.sealite-tmp-XXXXXXXXXXXXXXXX` (a new copy, until it is renamed into
/// place), with the `-journal`, `-wal` and `-shm` files SQLite adds to them.
enum DatabaseSiblingFiles {
  /// The absolute path of a database with symbolic links resolved: the file's
  /// own real path when it exists, else its directory's real path and its name.
  /// (KeyringDatabase resolves paths the same way, so that a database's lock,
  /// temporary files and keyring item agree.)
  static func canonicalPath(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    if let real = realpath(absolute, nil) {
      defer { free(real) }
      return String(cString: real)
    }
    let url = URL(fileURLWithPath: absolute)
    let directory = url.deletingLastPathComponent().path
    guard let real = realpath(directory, nil) else { return url.standardizedFileURL.path }
    defer { free(real) }
    let resolved = String(cString: real)
    return (resolved == "/" ? "" : resolved) + "/" + url.lastPathComponent
  }

  /// The directory and the file name of a path.
  static func split(_ path: String) -> (directory: String, name: String) {
    let url = URL(fileURLWithPath: path)
    return (url.deletingLastPathComponent().path, url.lastPathComponent)
  }

  static func lockPath(_ canonicalPath: String) -> String {
    let (directory, name) = split(canonicalPath)
    return "\(directory)/.\(name).sealite-lock"
  }

  /// A new, unused name for a temporary copy of the database.
  static func newTemporaryPath(_ canonicalPath: String) -> String {
    let (directory, name) = split(canonicalPath)
    var generator = SystemRandomNumberGenerator()
    let suffix = String(generator.next(), radix: 16).leftPadded(to: 16)
    return "\(directory)/.\(name).sealite-tmp-\(suffix)"
  }

  /// The suffixes SQLite adds to a database's name for its other files.
  static let sqliteSuffixes = ["-journal", "-wal", "-shm"]

  /// Removes a temporary copy and SQLite's files beside it.
  static func removeTemporary(_ path: String) {
    for suffix in [""] + sqliteSuffixes { unlink(path + suffix) }
  }

  /// The temporary copies (and their SQLite files) that operations on the
  /// database left behind: those of this version, and the
  /// `.NAME.sealite-export-XXXXXXXX` files of earlier ones.
  static func leftovers(of canonicalPath: String) -> [String] {
    let (directory, name) = split(canonicalPath)
    let prefixes = [".\(name).sealite-tmp-", ".\(name).sealite-export-"]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return entries.filter { entry in prefixes.contains { entry.hasPrefix($0) } }.sorted().map {
      "\(directory)/\($0)"
    }
  }

  /// Removes what ``leftovers(of:)`` lists. Safe only while this process
  /// holds the database's ``DatabaseFileLock`` (no live operation owns them).
  static func removeLeftovers(of canonicalPath: String) {
    for path in leftovers(of: canonicalPath) { unlink(path) }
  }
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    count >= length ? self : String(repeating: "0", count: length - count) + self
  }
}
