/// The path of an association from its origin table to its destination, one
/// step per joined table (a `through` association has several).
public struct SQLAssociation: Sendable {
  /// One table of the path.
  struct Step: Sendable {
    enum Kind: Sendable {
      /// The origin table holds the foreign key.
      case belongsTo
      /// The destination table holds the foreign key.
      case hasOne
      /// The destination table holds the foreign key; many rows.
      case hasMany
      /// A join on a condition of the program's (``JoinAssociation``), or
      /// on none; one row.
      case join((@Sendable (SQLTableAlias, SQLTableAlias) -> SQLExpression)?)
    }

    var kind: Kind
    var originTable: String
    var relation: SQLRelation
    var foreignKey: ForeignKey?
    /// The step's own name in fetched rows: a `through` association keeps
    /// its pivot's key for the pivot's table, so that the pivot joined by
    /// another use of its association is the same join (GRDB's rule).
    var key: AssociationKey

    var isToMany: Bool {
      if case .hasMany = kind { return true }
      return false
    }

    /// Whether the step joins on a foreign key (not on a condition of the
    /// program's).
    var followsForeignKey: Bool {
      if case .join = kind { return false }
      return true
    }

    /// The join condition between a row of the origin side and one of the
    /// destination side.
    /// The condition that links a row of `origin` to its rows of
    /// `destination`: `destination.column = origin.column`, or the other way
    /// round with `originFirst` (GRDB writes the joined table's column first,
    /// and the origin is the joined table when an association is followed
    /// backwards).
    func condition(
      _ db: Database, origin: SQLTableAlias, destination: SQLTableAlias, originFirst: Bool = false
    ) throws -> SQLExpression {
      if case .join(let condition) = kind {
        return condition?(origin, destination) ?? SQLExpression(.associative("AND", [], empty: "1"))
      }
      let pairs = try columnPairs(db)
      let terms = pairs.map { originColumn, destinationColumn in
        let destinationTerm = SQLExpression(.column(destinationColumn, alias: destination))
        let originTerm = SQLExpression(.column(originColumn, alias: origin))
        return SQLExpression(
          .binary("=", originFirst ? originTerm : destinationTerm, originFirst ? destinationTerm : originTerm)
        )
      }
      return SQLExpression(.associative("AND", terms, empty: "1"))
    }

    /// (origin column, destination column) pairs of the foreign key.
    func columnPairs(_ db: Database) throws -> [(String, String)] {
      switch kind {
      case .belongsTo:
        let key = try db.resolveForeignKey(from: originTable, to: relation.tableName, explicit: foreignKey)
        return Array(zip(key.referencing, key.referenced))
      case .hasOne, .hasMany:
        let key = try db.resolveForeignKey(from: relation.tableName, to: originTable, explicit: foreignKey)
        return Array(zip(key.referenced, key.referencing))
      case .join:
        throw DatabaseError.misuse(
          "an association to \(relation.tableName) joined on a condition has no foreign key columns")
      }
    }
  }

  var steps: [Step]

  /// The name of the association in fetched rows and decoded records: its
  /// destination's key.
  var key: AssociationKey {
    get { steps[steps.count - 1].key }
    set { steps[steps.count - 1].key = newValue }
  }

  var isToMany: Bool { steps.contains { $0.isToMany } }

  /// The destination table's relation: filters, orderings, selection, nested
  /// associations of the association itself.
  var destination: SQLRelation {
    get { steps[steps.count - 1].relation }
    set { steps[steps.count - 1].relation = newValue }
  }

  /// The association as a join of its origin: intermediate tables joined,
  /// the destination included (selected) or only joined.
  func join(kind: SQLJoin.Kind, isIncluded: Bool, annotationOrder: Int? = nil) -> SQLJoin {
    var join: SQLJoin?
    for (index, step) in steps.enumerated().reversed() {
      var relation = step.relation
      let isDestination = index == steps.count - 1
      if !isDestination {
        // Intermediate tables are joined, never selected; their orderings
        // apply, as those of any joined table.
        relation.edit { $0.selection = [] }
      }
      if let inner = join { relation.edit { $0.joins.append(inner) } }
      join = SQLJoin(
        kind: kind, relation: relation,
        condition: { db, parent, child in try step.condition(db, origin: parent, destination: child) },
        isIncluded: isDestination && isIncluded, key: step.key.singular, isToMany: isToMany,
        step: step, annotationOrder: isDestination ? annotationOrder : nil)
    }
    return join!
  }
}

/// The name of an association in rows and records. A default key follows the
/// destination table name, in the singular where one row is fetched (scopes,
/// `belongsTo`, `hasOne`) and in the plural where many are (`including(all:)`):
/// `book` / `books`, `person` / `people`. A key given with `key:` or
/// `forKey(_:)` is used as is in the association's own number, and inflected
/// in the other, as GRDB does: a to-many association keyed `kittens` is
/// included as one row under `kitten` (`including(required:)`).
enum AssociationKey: Sendable {
  case inflected(String)
  /// A given key; `isPlural` for a to-many association.
  case fixed(String, isPlural: Bool)

  var singular: String {
    switch self {
    case .inflected(let name): return Inflections.singularize(name)
    case .fixed(let name, let isPlural): return isPlural ? Inflections.singularize(name) : name
    }
  }

  var plural: String {
    switch self {
    case .inflected(let name): return Inflections.pluralize(name)
    case .fixed(let name, let isPlural): return isPlural ? name : Inflections.pluralize(name)
    }
  }
}

/// A link from one record type to another, declared on the origin type:
///
///     struct Book: TableRecord {
///       static let author = belongsTo(Author.self)
///     }
///     struct Author: TableRecord {
///       static let books = hasMany(Book.self)
///     }
///
/// Requests use it to join (`joining`), include (`including`), annotate
/// (`annotated(with: Author.books.count)`) or filter (`having`).
public protocol Association<OriginRowDecoder, RowDecoder>: DerivableRequest, Sendable {
  /// The origin record type.
  associatedtype OriginRowDecoder
  /// The destination record type.
  associatedtype RowDecoder

  /// The association's path; not for direct use.
  var sqlAssociation: SQLAssociation { get set }
}

/// An association to at most one row.
public protocol AssociationToOne: Association {}

/// An association to any number of rows.
public protocol AssociationToMany: Association {}

/// `belongsTo`: the origin table holds the foreign key.
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
  public typealias OriginRowDecoder = Origin
  public typealias RowDecoder = Destination
  public var sqlAssociation: SQLAssociation
}

/// `hasOne`: the destination table holds the foreign key; one row.
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
  public typealias OriginRowDecoder = Origin
  public typealias RowDecoder = Destination
  public var sqlAssociation: SQLAssociation
}

/// `hasMany`: the destination table holds the foreign key; many rows.
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
  public typealias OriginRowDecoder = Origin
  public typealias RowDecoder = Destination
  public var sqlAssociation: SQLAssociation
}

/// `hasMany(_:through:using:)`: many rows reached through another association.
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
  public typealias OriginRowDecoder = Origin
  public typealias RowDecoder = Destination
  public var sqlAssociation: SQLAssociation
}

/// `hasOne(_:through:using:)`: one row reached through to-one associations.
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
  public typealias OriginRowDecoder = Origin
  public typealias RowDecoder = Destination
  public var sqlAssociation: SQLAssociation
}

// MARK: - Refining an association

extension Association {
  /// The association with its destination table's relation edited.
  func mapDestination(_ transform: @escaping @Sendable (inout SQLRelation) -> Void) -> Self {
    var association = self
    association.sqlAssociation.destination.edit(transform)
    return association
  }

  /// Keeps the associated rows that match `predicate`.
  public func filter(_ predicate: some SQLExpressible) -> Self {
    let predicate = predicate.sqlExpression
    return mapDestination { $0.filters.append(.expression(predicate)) }
  }

  /// Orders the associated rows (in prefetched to-many associations, and
  /// after the origin's ordering in joined requests).
  public func order(_ orderings: any SQLOrderingTerm...) -> Self {
    let orderings = orderings.map { $0.sqlOrdering }
    return mapDestination {
      $0.ordering = orderings
      $0.isReversed = false
    }
  }

  /// Selects the given columns of the associated table.
  public func select(_ selection: any SQLSelectable...) -> Self {
    let selection = selection.map { $0.sqlSelection }
    return mapDestination { $0.selection = selection }
  }

  /// Selects more columns of the associated table.
  public func annotated(with selection: any SQLSelectable...) -> Self {
    let selection = selection.map { $0.sqlSelection }
    return mapDestination { $0.selection += selection }
  }

  /// Removes duplicate associated rows (in `including(all:)`).
  public func distinct() -> Self {
    mapDestination { $0.isDistinct = true }
  }

  /// The same association under another name in fetched rows and records.
  public func forKey(_ key: String) -> Self {
    var association = self
    association.sqlAssociation.key = .fixed(key, isPlural: association.sqlAssociation.isToMany)
    return association
  }

  /// The same association under the name of a coding key.
  public func forKey(_ key: some CodingKey) -> Self {
    forKey(key.stringValue)
  }
}

extension SQLRelation {
  /// Adds an association as a join.
  mutating func add(
    _ association: SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool, isAnnotation: Bool = false
  ) {
    var association = association
    // Each use of an association joins its own copy of the tables.
    for index in association.steps.indices where !association.steps[index].relation.alias.isUserAlias {
      association.steps[index].relation = association.steps[index].relation.copiedAlias()
    }
    let annotationOrder = isAnnotation ? joins.reduce(0) { max($0, $1.lastAnnotationOrder) } + 1 : nil
    let join = association.join(kind: kind, isIncluded: isIncluded, annotationOrder: annotationOrder)
    // The same association twice under one key is refined, not duplicated
    // (GRDB's rule): required wins over optional, including over joining, and
    // both filters apply.
    if let index = joins.firstIndex(where: { $0.canMerge(join) }) {
      joins[index].merge(join)
    } else {
      joins.append(join)
    }
  }
}
