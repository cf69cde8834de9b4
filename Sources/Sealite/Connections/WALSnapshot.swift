import CSQLCipher
import Foundation

/// A state of a WAL database that SQLite can reopen in another connection
/// (`sqlite3_snapshot_get`, `sqlite3_snapshot_open`): only where the linked
/// SQLite was compiled with `SQLITE_ENABLE_SNAPSHOT`, which the SQLCipher
/// builds of Debian are not. The functions are looked up when the library
/// loads, so that Sealite links against builds without them.
final class WALSnapshot: @unchecked Sendable {
  // @unchecked Sendable: the snapshot is immutable once taken; SQLite reads
  // it in `sqlite3_snapshot_open` from any connection, and frees it once.
  private let pointer: OpaquePointer
  private let functions: Functions

  /// Takes the snapshot of the read transaction that `db` is in.
  init(_ db: Database) throws {
    try SQLiteFeatures.linked.require(.snapshots)
    guard let functions = Functions.linked else {
      throw SQLiteFeatureError(capability: .snapshots, presentVersion: SQLiteFeatures.linked.sqliteVersion)
    }
    var pointer: OpaquePointer?
    let code = functions.get(try db.connection, "main", &pointer)
    guard code == SQLITE_OK, let pointer else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code),
        message: "a snapshot needs a WAL database, in a read transaction that has read it")
    }
    self.pointer = pointer
    self.functions = functions
  }

  deinit {
    functions.free(pointer)
  }

  /// Makes the read transaction that `db` just began read this snapshot.
  func open(in db: Database) throws {
    let code = functions.open(try db.connection, "main", pointer)
    guard code == SQLITE_OK else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code), message: "the database snapshot can not be opened any longer")
    }
  }

  private struct Functions: @unchecked Sendable {
    // @unchecked Sendable: C function pointers of the loaded library.
    typealias Get =
      @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?
      ) -> CInt
    typealias Open = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, OpaquePointer?) -> CInt
    typealias Free = @convention(c) (OpaquePointer?) -> Void

    let get: Get
    let open: Open
    let free: Free

    static let linked: Functions? = {
      guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
      defer { dlclose(handle) }
      guard let get = dlsym(handle, "sqlite3_snapshot_get"),
        let open = dlsym(handle, "sqlite3_snapshot_open"),
        let free = dlsym(handle, "sqlite3_snapshot_free")
      else { return nil }
      return Functions(
        get: unsafeBitCast(get, to: Get.self), open: unsafeBitCast(open, to: Open.self),
        free: unsafeBitCast(free, to: Free.self))
    }()
  }
}
