import CLinux
import Foundation

/// A new database file, written under a temporary name beside its destination
/// and put in place by one rename: the commit point of an export, an import, a
/// migration or a creation. Until then the destination is untouched; after it,
/// the destination is the whole new file. Nothing is ever written through a
/// symbolic link.
struct NewDatabaseFile {
  /// The destination, its directory's symbolic links resolved.
  let destinationPath: String
  /// Where the file is written until it is published: created empty, mode 0600.
  let temporaryPath: String

  /// Checks that a new file can be put at `path` and creates its temporary
  /// file. Fails, creating nothing, with `SQLITE_CANTOPEN` and a message that
  /// says why: `path` is a symbolic link, a directory, not a regular file,
  /// exists without `overwrite`, is the file at `sourcePath`; its directory
  /// does not exist, is not a directory, or can not be written.
  init(destination path: String, overwrite: Bool, sourcePath: String? = nil) throws {
    let (directory, name) = DatabaseSiblingFiles.split(path)
    var info = stat()
    if lstat(path, &info) == 0 {
      let kind = info.st_mode & S_IFMT
      if kind == S_IFLNK {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
        throw DatabaseError(
          resultCode: .SQLITE_CANTOPEN,
          message: "\(path) is a symbolic link (to \(target)): Sealite never writes through one; "
            + "give the path of the file itself")
      }
      if kind == S_IFDIR {
        throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "cannot create \(path): it is a directory")
      }
      guard overwrite else {
        throw DatabaseError(
          resultCode: .SQLITE_CANTOPEN, message: "\(path) already exists: refusing to overwrite it")
      }
      guard kind == S_IFREG else {
        throw DatabaseError(
          resultCode: .SQLITE_CANTOPEN, message: "cannot create \(path): it is not a regular file")
      }
      var source = stat()
      if let sourcePath, stat(sourcePath, &source) == 0, source.st_dev == info.st_dev,
        source.st_ino == info.st_ino
      {
        throw DatabaseError(
          resultCode: .SQLITE_CANTOPEN, message: "\(path) is the database being copied: choose another file")
      }
    }
    var directoryInfo = stat()
    guard stat(directory, &directoryInfo) == 0 else {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN, message: "cannot create \(path): \(directory) does not exist")
    }
    guard directoryInfo.st_mode & S_IFMT == S_IFDIR else {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN, message: "cannot create \(path): \(directory) is not a directory")
    }
    guard access(directory, W_OK | X_OK) == 0 else {
      throw DatabaseError(
        resultCode: .SQLITE_CANTOPEN, message: "cannot create \(path): \(directory) is not writable")
    }
    destinationPath = DatabaseSiblingFiles.canonicalPath(directory) + "/" + name
    var temporaryPath = ""
    var descriptor: Int32 = -1
    // O_EXCL: the name is this operation's alone, whatever was there before.
    repeat {
      temporaryPath = DatabaseSiblingFiles.newTemporaryPath(destinationPath)
      descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    } while descriptor < 0 && errno == EEXIST
    guard descriptor >= 0 else {
      throw DatabaseError(
        resultCode: errno == ENOSPC ? .SQLITE_FULL : .SQLITE_CANTOPEN,
        message: "cannot create \(path): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
    self.temporaryPath = temporaryPath
  }

  /// Flushes the written file, renames it to the destination, and flushes the
  /// directory. Without `replacing`, a file that appeared at the destination
  /// meanwhile is never replaced: the publication fails instead.
  func publish(replacing: Bool) throws {
    try Self.sync(temporaryPath)
    if replacing {
      guard rename(temporaryPath, destinationPath) == 0 else { throw publicationError(errno) }
    } else {
      try renameWithoutReplacing()
    }
    try? Self.sync(DatabaseSiblingFiles.split(destinationPath).directory)
  }

  private func renameWithoutReplacing() throws {
    if sealite_rename_noreplace(temporaryPath, destinationPath) == 0 { return }
    let renameError = errno
    guard renameError == EINVAL || renameError == ENOSYS else { throw publicationError(renameError) }
    // No RENAME_NOREPLACE on this file system: a hard link fails the same way
    // on an existing name.
    if link(temporaryPath, destinationPath) == 0 {
      unlink(temporaryPath)
      return
    }
    let linkError = errno
    guard linkError == EPERM || linkError == EOPNOTSUPP else { throw publicationError(linkError) }
    // Neither (some FUSE and FAT file systems): checked, then renamed. Sealite's
    // own writers of the destination hold its DatabaseFileLock meanwhile.
    var info = stat()
    guard lstat(destinationPath, &info) != 0 else { throw publicationError(EEXIST) }
    guard rename(temporaryPath, destinationPath) == 0 else { throw publicationError(errno) }
  }

  private func publicationError(_ code: Int32) -> DatabaseError {
    if code == EEXIST {
      return DatabaseError(
        resultCode: .SQLITE_CANTOPEN,
        message:
          "\(destinationPath) already exists: another program created it meanwhile; nothing was replaced")
    }
    return DatabaseError(
      resultCode: code == ENOSPC ? .SQLITE_FULL : .SQLITE_CANTOPEN,
      message: "could not move the new file to \(destinationPath): \(String(cString: strerror(code)))")
  }

  /// Removes the temporary file and SQLite's files beside it.
  func discard() {
    DatabaseSiblingFiles.removeTemporary(temporaryPath)
  }

  /// Flushes a file (or directory) to disk.
  static func sync(_ path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    if fsync(descriptor) != 0 && errno != EINVAL {
      throw DatabaseError(
        resultCode: errno == ENOSPC ? .SQLITE_FULL : .SQLITE_IOERR,
        message: "could not write \(path) to disk: \(String(cString: strerror(errno)))")
    }
  }
}
