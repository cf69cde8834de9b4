/// The compiled statements a connection keeps by their SQL: those of
/// ``Database/cachedStatement(sql:)``, of the `fetch…(db, sql:)` methods and
/// requests, and of ``Database/execute(sql:arguments:)`` for SQL of one
/// statement.
///
/// The cache holds at most ``capacity`` statements. A program that builds its
/// SQL with values in it (`"… WHERE id = \(id)"`) compiles a new statement for
/// each value; unbounded, each would stay compiled as long as the connection.
/// When a new statement finds the cache full, the one used least recently is
/// forgotten (a cursor that steps it keeps it alive). Lookups only stamp the
/// statement they find: the scan for the oldest one runs when a statement is
/// compiled, which costs far more. A statement that a request or a lookup
/// keeps between its runs is stamped when it is looked up by its SQL, not at
/// each run: when other SQL fills the cache, it may be forgotten, and is then
/// looked up, and compiled, once more.
struct StatementCache {
  /// The most statements kept.
  static let capacity = 512

  private var statements: [String: Statement] = [:]
  /// The stamp of the latest use.
  private var clock: UInt64 = 0

  /// Changes whenever a statement is added or forgotten: a statement kept out
  /// of the cache with the generation it was fetched at is still the cached
  /// one while the generation is the same.
  private(set) var generation = 0

  var count: Int { statements.count }

  /// The statement compiled for `sql`, stamped as used now.
  subscript(sql: String) -> Statement? {
    mutating get {
      guard let statement = statements[sql] else { return nil }
      stamp(statement)
      return statement
    }
  }

  private mutating func stamp(_ statement: Statement) {
    clock &+= 1
    statement.cacheStamp = clock
  }

  /// Keeps `statement` for `sql`, forgetting the least recently used one if
  /// the cache is full.
  mutating func insert(_ statement: Statement, for sql: String) {
    if statements.count >= StatementCache.capacity, statements[sql] == nil,
      let oldest = statements.min(by: { $0.value.cacheStamp < $1.value.cacheStamp })
    {
      statements[oldest.key] = nil
    }
    stamp(statement)
    statements[sql] = statement
    generation &+= 1
  }

  mutating func removeAll() {
    guard !statements.isEmpty else { return }
    statements.removeAll()
    generation &+= 1
  }

  /// Forgets the statements `shouldForget` selects.
  mutating func removeAll(where shouldForget: (Statement) -> Bool) {
    let kept = statements.filter { !shouldForget($0.value) }
    guard kept.count != statements.count else { return }
    statements = kept
    generation &+= 1
  }
}
