// The rest of SQLite's extended result codes, as GRDB declares them: code
// written for GRDB matches any of them (`catch DatabaseError.SQLITE_IOERR_WRITE`).
// Values are spelled as SQLite's header defines them (primary code | n << 8),
// so that they do not depend on the header of the leg they are built with.

extension ResultCode {
  /// A statement was aborted because its transaction rolled back.
  public static let SQLITE_ABORT_ROLLBACK = ResultCode(rawValue: 4 | (2 << 8))
  /// The user authentication extension denied access (unused by standard builds).
  public static let SQLITE_AUTH_USER = ResultCode(rawValue: 23 | (1 << 8))
  /// Another connection is recovering the WAL file.
  public static let SQLITE_BUSY_RECOVERY = ResultCode(rawValue: 5 | (1 << 8))
  /// A blocking lock wait timed out (builds with `SQLITE_ENABLE_SETLK_TIMEOUT`).
  public static let SQLITE_BUSY_TIMEOUT = ResultCode(rawValue: 5 | (3 << 8))
  /// A path conversion failed (Cygwin only).
  public static let SQLITE_CANTOPEN_CONVPATH = ResultCode(rawValue: 14 | (4 << 8))
  /// Not used by SQLite.
  public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode(rawValue: 14 | (5 << 8))
  /// The full path of the file could not be determined.
  public static let SQLITE_CANTOPEN_FULLPATH = ResultCode(rawValue: 14 | (3 << 8))
  /// The path names a directory, not a file.
  public static let SQLITE_CANTOPEN_ISDIR = ResultCode(rawValue: 14 | (2 << 8))
  /// No temporary directory was found (no longer used by SQLite).
  public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode(rawValue: 14 | (1 << 8))
  /// The path is a symbolic link and the connection was opened with `SQLITE_OPEN_NOFOLLOW`.
  public static let SQLITE_CANTOPEN_SYMLINK = ResultCode(rawValue: 14 | (6 << 8))
  /// A commit hook asked for the commit to become a rollback.
  public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode(rawValue: 19 | (2 << 8))
  /// A value does not fit the declared type of a STRICT table's column.
  public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode(rawValue: 19 | (12 << 8))
  /// An SQL function raised a constraint error.
  public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode(rawValue: 19 | (4 << 8))
  /// A `RETURNING` trigger tried to change a row it reads.
  public static let SQLITE_CONSTRAINT_PINNED = ResultCode(rawValue: 19 | (11 << 8))
  /// A virtual table raised a constraint error.
  public static let SQLITE_CONSTRAINT_VTAB = ResultCode(rawValue: 19 | (9 << 8))
  /// An index does not match its table.
  public static let SQLITE_CORRUPT_INDEX = ResultCode(rawValue: 11 | (3 << 8))
  /// The `sqlite_sequence` table is malformed.
  public static let SQLITE_CORRUPT_SEQUENCE = ResultCode(rawValue: 11 | (2 << 8))
  /// The content of a virtual table is corrupt.
  public static let SQLITE_CORRUPT_VTAB = ResultCode(rawValue: 11 | (1 << 8))
  /// A statement names a collation that is not registered.
  public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode(rawValue: 1 | (1 << 8))
  /// A statement could not be prepared, and may succeed if tried again.
  public static let SQLITE_ERROR_RETRY = ResultCode(rawValue: 1 | (2 << 8))
  /// The requested WAL snapshot is no longer available.
  public static let SQLITE_ERROR_SNAPSHOT = ResultCode(rawValue: 1 | (3 << 8))
  /// An I/O error while checking whether a file exists or can be read.
  public static let SQLITE_IOERR_ACCESS = ResultCode(rawValue: 10 | (13 << 8))
  /// Not used by SQLite.
  public static let SQLITE_IOERR_AUTH = ResultCode(rawValue: 10 | (28 << 8))
  /// An atomic write could not start (F2FS batch atomic writes).
  public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode(rawValue: 10 | (29 << 8))
  /// Not used by SQLite.
  public static let SQLITE_IOERR_BLOCKED = ResultCode(rawValue: 10 | (11 << 8))
  /// An I/O error while checking for a reserved lock.
  public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode(rawValue: 10 | (14 << 8))
  /// An I/O error while closing a file.
  public static let SQLITE_IOERR_CLOSE = ResultCode(rawValue: 10 | (16 << 8))
  /// An atomic write could not be committed (F2FS batch atomic writes).
  public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode(rawValue: 10 | (30 << 8))
  /// A path conversion failed (Cygwin only).
  public static let SQLITE_IOERR_CONVPATH = ResultCode(rawValue: 10 | (26 << 8))
  /// A read found the file system corrupt (a checksum VFS, or a short read where none is possible).
  public static let SQLITE_IOERR_CORRUPTFS = ResultCode(rawValue: 10 | (33 << 8))
  /// A page checksum did not match (the checksum VFS shim).
  public static let SQLITE_IOERR_DATA = ResultCode(rawValue: 10 | (32 << 8))
  /// An I/O error while deleting a file.
  public static let SQLITE_IOERR_DELETE = ResultCode(rawValue: 10 | (10 << 8))
  /// A file to delete did not exist (reported by some VFSes).
  public static let SQLITE_IOERR_DELETE_NOENT = ResultCode(rawValue: 10 | (23 << 8))
  /// Not used by SQLite.
  public static let SQLITE_IOERR_DIR_CLOSE = ResultCode(rawValue: 10 | (17 << 8))
  /// An I/O error while syncing a directory.
  public static let SQLITE_IOERR_DIR_FSYNC = ResultCode(rawValue: 10 | (5 << 8))
  /// An I/O error while reading a file's metadata (`fstat`).
  public static let SQLITE_IOERR_FSTAT = ResultCode(rawValue: 10 | (7 << 8))
  /// An I/O error while syncing a file to storage.
  public static let SQLITE_IOERR_FSYNC = ResultCode(rawValue: 10 | (4 << 8))
  /// No temporary directory could be found.
  public static let SQLITE_IOERR_GETTEMPPATH = ResultCode(rawValue: 10 | (25 << 8))
  /// An I/O error in the file locking logic.
  public static let SQLITE_IOERR_LOCK = ResultCode(rawValue: 10 | (15 << 8))
  /// An I/O error while memory-mapping a file.
  public static let SQLITE_IOERR_MMAP = ResultCode(rawValue: 10 | (24 << 8))
  /// A memory allocation failed during an I/O operation.
  public static let SQLITE_IOERR_NOMEM = ResultCode(rawValue: 10 | (12 << 8))
  /// An I/O error while taking a read lock.
  public static let SQLITE_IOERR_RDLOCK = ResultCode(rawValue: 10 | (9 << 8))
  /// An I/O error while reading a file.
  public static let SQLITE_IOERR_READ = ResultCode(rawValue: 10 | (1 << 8))
  /// An atomic write could not be rolled back (F2FS batch atomic writes).
  public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode(rawValue: 10 | (31 << 8))
  /// An I/O error while moving the file offset.
  public static let SQLITE_IOERR_SEEK = ResultCode(rawValue: 10 | (22 << 8))
  /// Not used by SQLite.
  public static let SQLITE_IOERR_SHMLOCK = ResultCode(rawValue: 10 | (20 << 8))
  /// An I/O error while mapping the WAL's shared memory (`-shm`).
  public static let SQLITE_IOERR_SHMMAP = ResultCode(rawValue: 10 | (21 << 8))
  /// An I/O error while opening the WAL's shared memory (`-shm`).
  public static let SQLITE_IOERR_SHMOPEN = ResultCode(rawValue: 10 | (18 << 8))
  /// An I/O error while growing the WAL's shared memory (`-shm`).
  public static let SQLITE_IOERR_SHMSIZE = ResultCode(rawValue: 10 | (19 << 8))
  /// An I/O error while truncating a file.
  public static let SQLITE_IOERR_TRUNCATE = ResultCode(rawValue: 10 | (6 << 8))
  /// An I/O error while releasing a lock.
  public static let SQLITE_IOERR_UNLOCK = ResultCode(rawValue: 10 | (8 << 8))
  /// A file was changed by another process in a way SQLite can not follow (Apple file systems).
  public static let SQLITE_IOERR_VNODE = ResultCode(rawValue: 10 | (27 << 8))
  /// An I/O error while writing a file.
  public static let SQLITE_IOERR_WRITE = ResultCode(rawValue: 10 | (3 << 8))
  /// A table is locked by another connection of the same shared cache.
  public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode(rawValue: 6 | (1 << 8))
  /// A virtual table could not take the lock it needs.
  public static let SQLITE_LOCKED_VTAB = ResultCode(rawValue: 6 | (2 << 8))
  /// A hot rollback journal was rolled back (a log notice).
  public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode(rawValue: 27 | (2 << 8))
  /// A WAL file was recovered (a log notice).
  public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode(rawValue: 27 | (1 << 8))
  /// A loaded extension asks to stay loaded after the connection that loaded it closes.
  public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode(rawValue: 0 | (1 << 8))
  /// A path resolved through a symbolic link (used inside VFSes).
  public static let SQLITE_OK_SYMLINK = ResultCode(rawValue: 0 | (2 << 8))
  /// A read-only connection can not initialize the WAL's shared memory.
  public static let SQLITE_READONLY_CANTINIT = ResultCode(rawValue: 8 | (5 << 8))
  /// A read-only connection can not lock the WAL's shared memory.
  public static let SQLITE_READONLY_CANTLOCK = ResultCode(rawValue: 8 | (2 << 8))
  /// The database's directory is read-only, so its journal can not be created.
  public static let SQLITE_READONLY_DIRECTORY = ResultCode(rawValue: 8 | (6 << 8))
  /// A WAL needs recovery, which a read-only connection can not run.
  public static let SQLITE_READONLY_RECOVERY = ResultCode(rawValue: 8 | (1 << 8))
  /// A query built an automatic index (a log warning).
  public static let SQLITE_WARNING_AUTOINDEX = ResultCode(rawValue: 28 | (1 << 8))
}

extension DatabaseError {
  /// ``ResultCode/SQLITE_ABORT_ROLLBACK``
  public static let SQLITE_ABORT_ROLLBACK = ResultCode.SQLITE_ABORT_ROLLBACK
  /// ``ResultCode/SQLITE_AUTH_USER``
  public static let SQLITE_AUTH_USER = ResultCode.SQLITE_AUTH_USER
  /// ``ResultCode/SQLITE_BUSY_RECOVERY``
  public static let SQLITE_BUSY_RECOVERY = ResultCode.SQLITE_BUSY_RECOVERY
  /// ``ResultCode/SQLITE_BUSY_TIMEOUT``
  public static let SQLITE_BUSY_TIMEOUT = ResultCode.SQLITE_BUSY_TIMEOUT
  /// ``ResultCode/SQLITE_CANTOPEN_CONVPATH``
  public static let SQLITE_CANTOPEN_CONVPATH = ResultCode.SQLITE_CANTOPEN_CONVPATH
  /// ``ResultCode/SQLITE_CANTOPEN_DIRTYWAL``
  public static let SQLITE_CANTOPEN_DIRTYWAL = ResultCode.SQLITE_CANTOPEN_DIRTYWAL
  /// ``ResultCode/SQLITE_CANTOPEN_FULLPATH``
  public static let SQLITE_CANTOPEN_FULLPATH = ResultCode.SQLITE_CANTOPEN_FULLPATH
  /// ``ResultCode/SQLITE_CANTOPEN_ISDIR``
  public static let SQLITE_CANTOPEN_ISDIR = ResultCode.SQLITE_CANTOPEN_ISDIR
  /// ``ResultCode/SQLITE_CANTOPEN_NOTEMPDIR``
  public static let SQLITE_CANTOPEN_NOTEMPDIR = ResultCode.SQLITE_CANTOPEN_NOTEMPDIR
  /// ``ResultCode/SQLITE_CANTOPEN_SYMLINK``
  public static let SQLITE_CANTOPEN_SYMLINK = ResultCode.SQLITE_CANTOPEN_SYMLINK
  /// ``ResultCode/SQLITE_CONSTRAINT_COMMITHOOK``
  public static let SQLITE_CONSTRAINT_COMMITHOOK = ResultCode.SQLITE_CONSTRAINT_COMMITHOOK
  /// ``ResultCode/SQLITE_CONSTRAINT_DATATYPE``
  public static let SQLITE_CONSTRAINT_DATATYPE = ResultCode.SQLITE_CONSTRAINT_DATATYPE
  /// ``ResultCode/SQLITE_CONSTRAINT_FUNCTION``
  public static let SQLITE_CONSTRAINT_FUNCTION = ResultCode.SQLITE_CONSTRAINT_FUNCTION
  /// ``ResultCode/SQLITE_CONSTRAINT_PINNED``
  public static let SQLITE_CONSTRAINT_PINNED = ResultCode.SQLITE_CONSTRAINT_PINNED
  /// ``ResultCode/SQLITE_CONSTRAINT_VTAB``
  public static let SQLITE_CONSTRAINT_VTAB = ResultCode.SQLITE_CONSTRAINT_VTAB
  /// ``ResultCode/SQLITE_CORRUPT_INDEX``
  public static let SQLITE_CORRUPT_INDEX = ResultCode.SQLITE_CORRUPT_INDEX
  /// ``ResultCode/SQLITE_CORRUPT_SEQUENCE``
  public static let SQLITE_CORRUPT_SEQUENCE = ResultCode.SQLITE_CORRUPT_SEQUENCE
  /// ``ResultCode/SQLITE_CORRUPT_VTAB``
  public static let SQLITE_CORRUPT_VTAB = ResultCode.SQLITE_CORRUPT_VTAB
  /// ``ResultCode/SQLITE_ERROR_MISSING_COLLSEQ``
  public static let SQLITE_ERROR_MISSING_COLLSEQ = ResultCode.SQLITE_ERROR_MISSING_COLLSEQ
  /// ``ResultCode/SQLITE_ERROR_RETRY``
  public static let SQLITE_ERROR_RETRY = ResultCode.SQLITE_ERROR_RETRY
  /// ``ResultCode/SQLITE_ERROR_SNAPSHOT``
  public static let SQLITE_ERROR_SNAPSHOT = ResultCode.SQLITE_ERROR_SNAPSHOT
  /// ``ResultCode/SQLITE_IOERR_ACCESS``
  public static let SQLITE_IOERR_ACCESS = ResultCode.SQLITE_IOERR_ACCESS
  /// ``ResultCode/SQLITE_IOERR_AUTH``
  public static let SQLITE_IOERR_AUTH = ResultCode.SQLITE_IOERR_AUTH
  /// ``ResultCode/SQLITE_IOERR_BEGIN_ATOMIC``
  public static let SQLITE_IOERR_BEGIN_ATOMIC = ResultCode.SQLITE_IOERR_BEGIN_ATOMIC
  /// ``ResultCode/SQLITE_IOERR_BLOCKED``
  public static let SQLITE_IOERR_BLOCKED = ResultCode.SQLITE_IOERR_BLOCKED
  /// ``ResultCode/SQLITE_IOERR_CHECKRESERVEDLOCK``
  public static let SQLITE_IOERR_CHECKRESERVEDLOCK = ResultCode.SQLITE_IOERR_CHECKRESERVEDLOCK
  /// ``ResultCode/SQLITE_IOERR_CLOSE``
  public static let SQLITE_IOERR_CLOSE = ResultCode.SQLITE_IOERR_CLOSE
  /// ``ResultCode/SQLITE_IOERR_COMMIT_ATOMIC``
  public static let SQLITE_IOERR_COMMIT_ATOMIC = ResultCode.SQLITE_IOERR_COMMIT_ATOMIC
  /// ``ResultCode/SQLITE_IOERR_CONVPATH``
  public static let SQLITE_IOERR_CONVPATH = ResultCode.SQLITE_IOERR_CONVPATH
  /// ``ResultCode/SQLITE_IOERR_CORRUPTFS``
  public static let SQLITE_IOERR_CORRUPTFS = ResultCode.SQLITE_IOERR_CORRUPTFS
  /// ``ResultCode/SQLITE_IOERR_DATA``
  public static let SQLITE_IOERR_DATA = ResultCode.SQLITE_IOERR_DATA
  /// ``ResultCode/SQLITE_IOERR_DELETE``
  public static let SQLITE_IOERR_DELETE = ResultCode.SQLITE_IOERR_DELETE
  /// ``ResultCode/SQLITE_IOERR_DELETE_NOENT``
  public static let SQLITE_IOERR_DELETE_NOENT = ResultCode.SQLITE_IOERR_DELETE_NOENT
  /// ``ResultCode/SQLITE_IOERR_DIR_CLOSE``
  public static let SQLITE_IOERR_DIR_CLOSE = ResultCode.SQLITE_IOERR_DIR_CLOSE
  /// ``ResultCode/SQLITE_IOERR_DIR_FSYNC``
  public static let SQLITE_IOERR_DIR_FSYNC = ResultCode.SQLITE_IOERR_DIR_FSYNC
  /// ``ResultCode/SQLITE_IOERR_FSTAT``
  public static let SQLITE_IOERR_FSTAT = ResultCode.SQLITE_IOERR_FSTAT
  /// ``ResultCode/SQLITE_IOERR_FSYNC``
  public static let SQLITE_IOERR_FSYNC = ResultCode.SQLITE_IOERR_FSYNC
  /// ``ResultCode/SQLITE_IOERR_GETTEMPPATH``
  public static let SQLITE_IOERR_GETTEMPPATH = ResultCode.SQLITE_IOERR_GETTEMPPATH
  /// ``ResultCode/SQLITE_IOERR_LOCK``
  public static let SQLITE_IOERR_LOCK = ResultCode.SQLITE_IOERR_LOCK
  /// ``ResultCode/SQLITE_IOERR_MMAP``
  public static let SQLITE_IOERR_MMAP = ResultCode.SQLITE_IOERR_MMAP
  /// ``ResultCode/SQLITE_IOERR_NOMEM``
  public static let SQLITE_IOERR_NOMEM = ResultCode.SQLITE_IOERR_NOMEM
  /// ``ResultCode/SQLITE_IOERR_RDLOCK``
  public static let SQLITE_IOERR_RDLOCK = ResultCode.SQLITE_IOERR_RDLOCK
  /// ``ResultCode/SQLITE_IOERR_READ``
  public static let SQLITE_IOERR_READ = ResultCode.SQLITE_IOERR_READ
  /// ``ResultCode/SQLITE_IOERR_ROLLBACK_ATOMIC``
  public static let SQLITE_IOERR_ROLLBACK_ATOMIC = ResultCode.SQLITE_IOERR_ROLLBACK_ATOMIC
  /// ``ResultCode/SQLITE_IOERR_SEEK``
  public static let SQLITE_IOERR_SEEK = ResultCode.SQLITE_IOERR_SEEK
  /// ``ResultCode/SQLITE_IOERR_SHMLOCK``
  public static let SQLITE_IOERR_SHMLOCK = ResultCode.SQLITE_IOERR_SHMLOCK
  /// ``ResultCode/SQLITE_IOERR_SHMMAP``
  public static let SQLITE_IOERR_SHMMAP = ResultCode.SQLITE_IOERR_SHMMAP
  /// ``ResultCode/SQLITE_IOERR_SHMOPEN``
  public static let SQLITE_IOERR_SHMOPEN = ResultCode.SQLITE_IOERR_SHMOPEN
  /// ``ResultCode/SQLITE_IOERR_SHMSIZE``
  public static let SQLITE_IOERR_SHMSIZE = ResultCode.SQLITE_IOERR_SHMSIZE
  /// ``ResultCode/SQLITE_IOERR_TRUNCATE``
  public static let SQLITE_IOERR_TRUNCATE = ResultCode.SQLITE_IOERR_TRUNCATE
  /// ``ResultCode/SQLITE_IOERR_UNLOCK``
  public static let SQLITE_IOERR_UNLOCK = ResultCode.SQLITE_IOERR_UNLOCK
  /// ``ResultCode/SQLITE_IOERR_VNODE``
  public static let SQLITE_IOERR_VNODE = ResultCode.SQLITE_IOERR_VNODE
  /// ``ResultCode/SQLITE_IOERR_WRITE``
  public static let SQLITE_IOERR_WRITE = ResultCode.SQLITE_IOERR_WRITE
  /// ``ResultCode/SQLITE_LOCKED_SHAREDCACHE``
  public static let SQLITE_LOCKED_SHAREDCACHE = ResultCode.SQLITE_LOCKED_SHAREDCACHE
  /// ``ResultCode/SQLITE_LOCKED_VTAB``
  public static let SQLITE_LOCKED_VTAB = ResultCode.SQLITE_LOCKED_VTAB
  /// ``ResultCode/SQLITE_NOTICE_RECOVER_ROLLBACK``
  public static let SQLITE_NOTICE_RECOVER_ROLLBACK = ResultCode.SQLITE_NOTICE_RECOVER_ROLLBACK
  /// ``ResultCode/SQLITE_NOTICE_RECOVER_WAL``
  public static let SQLITE_NOTICE_RECOVER_WAL = ResultCode.SQLITE_NOTICE_RECOVER_WAL
  /// ``ResultCode/SQLITE_OK_LOAD_PERMANENTLY``
  public static let SQLITE_OK_LOAD_PERMANENTLY = ResultCode.SQLITE_OK_LOAD_PERMANENTLY
  /// ``ResultCode/SQLITE_OK_SYMLINK``
  public static let SQLITE_OK_SYMLINK = ResultCode.SQLITE_OK_SYMLINK
  /// ``ResultCode/SQLITE_READONLY_CANTINIT``
  public static let SQLITE_READONLY_CANTINIT = ResultCode.SQLITE_READONLY_CANTINIT
  /// ``ResultCode/SQLITE_READONLY_CANTLOCK``
  public static let SQLITE_READONLY_CANTLOCK = ResultCode.SQLITE_READONLY_CANTLOCK
  /// ``ResultCode/SQLITE_READONLY_DIRECTORY``
  public static let SQLITE_READONLY_DIRECTORY = ResultCode.SQLITE_READONLY_DIRECTORY
  /// ``ResultCode/SQLITE_READONLY_RECOVERY``
  public static let SQLITE_READONLY_RECOVERY = ResultCode.SQLITE_READONLY_RECOVERY
  /// ``ResultCode/SQLITE_WARNING_AUTOINDEX``
  public static let SQLITE_WARNING_AUTOINDEX = ResultCode.SQLITE_WARNING_AUTOINDEX
}
