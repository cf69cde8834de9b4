import Glibc

// What opening a connection, and the operations on whole files, need to know
// of a database file before SQLite reads it.
extension Database {
  /// True for a regular file of zero bytes, or a missing one (in-memory and
  /// URI databases are not files).
  static func isEmptyFile(_ path: String) -> Bool {
    guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return false }
    var info = stat()
    guard stat(path, &info) == 0 else { return true }
    return info.st_size == 0
  }

  /// True if `path` names a directory (through symbolic links).
  static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// True for an existing regular file of zero bytes without a non-empty
  /// `-wal` beside it (whose frames would hold the database).
  static func isZeroLengthFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 else { return false }
    var walInfo = stat()
    return stat(path + "-wal", &walInfo) != 0 || walInfo.st_size == 0
  }
}
