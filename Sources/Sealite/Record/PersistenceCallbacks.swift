// The persistence callbacks, run once each and in GRDB's order:
//
//     willSave → aroundSave {
//       willInsert → aroundInsert { INSERT } → didInsert
//       (or willUpdate → aroundUpdate { UPDATE } → didUpdate)
//     } → didSave
//
// `delete` runs willDelete → aroundDelete { DELETE } → didDelete. An
// `around…` callback that does not call its action, or swallows the error of
// its action, leaves the operation without an outcome: the method then throws
// SQLITE_MISUSE instead of reporting a success that did not happen (this can
// only be seen when the action fails, so it must not crash).

// The callbacks and the outcomes they pass on are inlinable: a record's
// persistence method is then specialized for the record type where it is
// called, its callbacks are called directly (the defaults, which do nothing,
// vanish), and the record is copied as itself, not through the generic
// witnesses of an unknown type.

// The outcomes have no initializer of their own: their memberwise
// initializers build them in place. An explicit initializer, inlined where an
// outcome is made, assigned its fields one by one in a stack copy of `self`,
// which the optimizer then copied out and destroyed (a retain and a release
// of each array of the record's container): 283 instructions and four atomic
// operations more per record written (callgrind and `sealite-allocations
// record-insert-references`). Only Sealite's own, not inlinable, code builds
// them.

/// What the INSERT of an insert, save or upsert produced.
@usableFromInline
struct InsertOutcome {
  @usableFromInline var success: InsertionSuccess
  /// True when `INSERT OR IGNORE` inserted nothing: `didInsert` and `didSave`
  /// are then not called (GRDB calls them with an unrelated rowid).
  @usableFromInline var ignored: Bool
}

/// What the UPDATE of an update or save produced.
@usableFromInline
struct UpdateOutcome {
  @usableFromInline var success: PersistenceSuccess
}

/// What the action inside `aroundSave` produced.
@usableFromInline
struct SaveOutcome {
  @usableFromInline var success: PersistenceSuccess
  @usableFromInline var ignored: Bool

  // The outcome's container is taken out of it, not read: reading
  // a stored property of a consuming value copies it (a retain of each
  // array) before the value is destroyed (their release).
  @inlinable
  init(_ outcome: consuming InsertOutcome) {
    success = PersistenceSuccess(persistenceContainer: outcome.success.persistenceContainer.take())
    ignored = outcome.ignored
  }

  /// Hands the written container's storage to the next record encoded (see
  /// ``PersistenceContainer/recycle()``), where the outcome is dropped.
  @inlinable
  consuming func recycle() {
    success.persistenceContainer.recycle()
  }

  @inlinable
  init(_ outcome: consuming UpdateOutcome) {
    success = PersistenceSuccess(persistenceContainer: outcome.success.persistenceContainer.take())
    ignored = false
  }
}

extension MutablePersistableRecord {
  /// The error of an `around…` callback that did not run its action, or did
  /// not rethrow its error.
  @usableFromInline
  func persistenceCallbackMisuse(_ callback: String) -> DatabaseError {
    DatabaseError(
      resultCode: .SQLITE_MISUSE,
      message:
        "\(Self.self).\(callback) must call its action function once, and rethrow the error it throws")
  }

  /// `willSave`, then `aroundSave` around `action`, then `didSave`.
  @inlinable
  func withSaveCallbacks(_ db: Database, _ action: () throws -> SaveOutcome) throws -> SaveOutcome {
    try willSave(db)
    // The outcome is stored where it is kept, only its success is copied for
    // the callback (`outcome!.success` reads it in place, where
    // `unsafelyUnwrapped` would copy the whole outcome first), and it is
    // moved out (`take()`) once the callback returned. The insert and update
    // callbacks below do the same.
    var outcome: SaveOutcome?
    try aroundSave(db) {
      outcome = try action()
      return outcome!.success
    }
    guard let outcome = outcome.take() else { throw persistenceCallbackMisuse("aroundSave") }
    if !outcome.ignored { didSave(outcome.success) }
    return outcome
  }

  /// `willInsert`, then `aroundInsert` around `action`, then `didInsert`.
  /// `action` encodes the record after `willInsert`, which may change it.
  @inlinable
  mutating func withInsertCallbacks(_ db: Database, _ action: (Self) throws -> InsertOutcome) throws
    -> InsertOutcome
  {
    try willInsert(db)
    var outcome: InsertOutcome?
    let record = self
    try aroundInsert(db) {
      outcome = try action(record)
      return outcome!.success
    }
    guard let outcome = outcome.take() else { throw persistenceCallbackMisuse("aroundInsert") }
    if !outcome.ignored { didInsert(outcome.success) }
    return outcome
  }

  /// `willUpdate`, then `aroundUpdate` around `action`, then `didUpdate`.
  @inlinable
  func withUpdateCallbacks(_ db: Database, columns: Set<String>, _ action: () throws -> UpdateOutcome) throws
    -> UpdateOutcome
  {
    try willUpdate(db, columns: columns)
    var outcome: UpdateOutcome?
    try aroundUpdate(db, columns: columns) {
      outcome = try action()
      return outcome!.success
    }
    guard let outcome = outcome.take() else { throw persistenceCallbackMisuse("aroundUpdate") }
    didUpdate(outcome.success)
    return outcome
  }

  /// `willDelete`, then `aroundDelete` around `action`, then `didDelete`.
  @inlinable
  func withDeleteCallbacks(_ db: Database, _ action: () throws -> Bool) throws -> Bool {
    try willDelete(db)
    var deleted: Bool?
    try aroundDelete(db) {
      let result = try action()
      deleted = result
      return result
    }
    guard let deleted else { throw persistenceCallbackMisuse("aroundDelete") }
    didDelete(deleted: deleted)
    return deleted
  }
}
