// How `belongsTo`, `hasOne`, `hasMany` and their `through` forms make an
// association, whatever declares it: a record type (Record layer) or a
// `Table` (Table+Associations.swift).

extension SQLAssociation {
  /// A one-step association from the table `originTable` to `destination`.
  /// Its key is `key`, or else derived from the destination table name
  /// (singular or plural, as the association is used).
  init(
    _ kind: Step.Kind, from originTable: String, to destination: SQLRelation, key: String?,
    using foreignKey: ForeignKey?
  ) {
    var step = Step(
      kind: kind, originTable: originTable, relation: destination, foreignKey: foreignKey,
      key: .inflected(destination.tableName))
    if let key { step.key = .fixed(key, isPlural: step.isToMany) }
    self.init(steps: [step])
  }

  /// The association that follows `pivot`, then `target` from the pivot's
  /// destination. Its key is `key`, or else the target's.
  init(through pivot: SQLAssociation, using target: SQLAssociation, key: String?) {
    self.init(steps: pivot.steps + target.steps)
    if let key { self.key = .fixed(key, isPlural: isToMany) }
  }
}
