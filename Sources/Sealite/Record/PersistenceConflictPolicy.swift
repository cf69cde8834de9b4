/// The conflict resolution of a record type's inserts and updates.
public struct PersistenceConflictPolicy: Sendable {
  /// The policy of inserts.
  public let conflictResolutionForInsert: Database.ConflictResolution
  /// The policy of updates.
  public let conflictResolutionForUpdate: Database.ConflictResolution

  /// Creates a policy.
  public init(
    insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort
  ) {
    conflictResolutionForInsert = insert
    conflictResolutionForUpdate = update
  }
}
