/// A type-erased ``DatabaseReader``: every access is forwarded to the reader
/// it wraps.
///
///     let reader = AnyDatabaseReader(dbPool)
///     let count = try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
public final class AnyDatabaseReader: DatabaseReader, TypeErasedDatabaseReader {
  let base: any DatabaseReader

  /// Wraps `base`.
  public init(_ base: any DatabaseReader) {
    self.base = base
  }

  /// The configuration of the wrapped reader.
  public var configuration: Configuration { base.configuration }

  /// The path of the wrapped reader's database file.
  public var path: String { base.path }

  /// Closes the wrapped reader.
  public func close() throws { try base.close() }

  /// Interrupts the wrapped reader's statements.
  public func interrupt() { base.interrupt() }

  /// Reads with the wrapped reader.
  @_disfavoredOverload
  public func read<T>(_ value: (Database) throws -> T) throws -> T {
    try base.read(value)
  }

  /// Reads with the wrapped reader, without blocking the caller.
  public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await base.read(value)
  }

  /// Reads with the wrapped reader later.
  public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    base.asyncRead(value)
  }

  /// An unsafe read of the wrapped reader.
  @_disfavoredOverload
  public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
    try base.unsafeRead(value)
  }

  /// An unsafe read of the wrapped reader, without blocking the caller.
  public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await base.unsafeRead(value)
  }

  /// An unsafe read of the wrapped reader, later.
  public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    base.asyncUnsafeRead(value)
  }

  /// A reentrant unsafe read of the wrapped reader.
  public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
    try base.unsafeReentrantRead(value)
  }
}

/// A type-erased ``DatabaseWriter``: every access is forwarded to the writer
/// it wraps.
///
///     let writer = AnyDatabaseWriter(dbQueue)
///     try writer.write { db in try db.execute(sql: "DELETE FROM player") }
public final class AnyDatabaseWriter: DatabaseWriter, TypeErasedDatabaseReader {
  let base: any DatabaseWriter

  /// Wraps `base`.
  public init(_ base: any DatabaseWriter) {
    self.base = base
  }

  /// The configuration of the wrapped writer.
  public var configuration: Configuration { base.configuration }

  /// The path of the wrapped writer's database file.
  public var path: String { base.path }

  /// Closes the wrapped writer.
  public func close() throws { try base.close() }

  /// Interrupts the wrapped writer's statements.
  public func interrupt() { base.interrupt() }

  /// Reads with the wrapped writer.
  @_disfavoredOverload
  public func read<T>(_ value: (Database) throws -> T) throws -> T {
    try base.read(value)
  }

  /// Reads with the wrapped writer, without blocking the caller.
  public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await base.read(value)
  }

  /// Reads with the wrapped writer later.
  public func asyncRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    base.asyncRead(value)
  }

  /// An unsafe read of the wrapped writer.
  @_disfavoredOverload
  public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
    try base.unsafeRead(value)
  }

  /// An unsafe read of the wrapped writer, without blocking the caller.
  public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
    try await base.unsafeRead(value)
  }

  /// An unsafe read of the wrapped writer, later.
  public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    base.asyncUnsafeRead(value)
  }

  /// A reentrant unsafe read of the wrapped writer.
  public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
    try base.unsafeReentrantRead(value)
  }

  /// Writes outside of a transaction with the wrapped writer.
  @_disfavoredOverload
  public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
    try base.writeWithoutTransaction(updates)
  }

  /// Writes outside of a transaction with the wrapped writer, without
  /// blocking the caller.
  public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws
    -> T
  {
    try await base.writeWithoutTransaction(updates)
  }

  /// A barrier write of the wrapped writer.
  @_disfavoredOverload
  public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
    try base.barrierWriteWithoutTransaction(updates)
  }

  /// A barrier write of the wrapped writer, without blocking the caller.
  public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T)
    async throws -> T
  {
    try await base.barrierWriteWithoutTransaction(updates)
  }

  /// A barrier write of the wrapped writer, later.
  public func asyncBarrierWriteWithoutTransaction(
    _ updates: @escaping @Sendable (Result<Database, any Error>) -> Void
  ) {
    base.asyncBarrierWriteWithoutTransaction(updates)
  }

  /// A write of the wrapped writer, later.
  public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
    base.asyncWriteWithoutTransaction(updates)
  }

  /// A reentrant write of the wrapped writer.
  public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
    try base.unsafeReentrantWrite(updates)
  }

  /// A concurrent read of the wrapped writer.
  public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, any Error>) -> Void) {
    base.spawnConcurrentRead(value)
  }
}

/// The type-erasing readers and writers: code that must know what a reader
/// is (an observation picks where it fetches) looks through them.
protocol TypeErasedDatabaseReader {
  var erasedBase: any DatabaseReader { get }
}

extension AnyDatabaseReader {
  var erasedBase: any DatabaseReader { base }
}

extension AnyDatabaseWriter {
  var erasedBase: any DatabaseReader { base }
}

/// The reader that `reader` wraps, through every type-erasing wrapper.
func unerased(_ reader: any DatabaseReader) -> any DatabaseReader {
  var reader = reader
  while let erased = reader as? any TypeErasedDatabaseReader { reader = erased.erasedBase }
  return reader
}
