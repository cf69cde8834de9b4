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
    let step = Step(kind: kind, originTable: originTable, relation: destination, foreignKey: foreignKey)
    self.init(
      steps: [step], key: key.map { .fixed($0, isPlural: step.isToMany) } ?? .inflected(destination.tableName)
    )
  }

  /// The association that follows `pivot`, then `target` from the pivot's
  /// destination. Its key is `key`, or else the target's.
  init(through pivot: SQLAssociation, using target: SQLAssociation, key: String?) {
    let steps = pivot.steps + target.steps
    self.init(
      steps: steps, key: key.map { .fixed($0, isPlural: steps.contains(where: \.isToMany)) } ?? target.key)
  }
}
