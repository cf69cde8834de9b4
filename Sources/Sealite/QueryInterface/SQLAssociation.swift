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
    }

    var kind: Kind
    var originTable: String
    var relation: SQLRelation
    var foreignKey: ForeignKey?

    var isToMany: Bool { kind == .hasMany }

    /// The join condition between a row of the origin side and one of the
    /// destination side.
    func condition(_ db: Database, origin: SQLTableAlias, destination: SQLTableAlias) throws -> SQLExpression
    {
      let pairs = try columnPairs(db)
      let terms = pairs.map { originColumn, destinationColumn in
        SQLExpression(
          .binary(
            "=", SQLExpression(.column(destinationColumn, alias: destination)),
            SQLExpression(.column(originColumn, alias: origin))))
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
      }
    }
  }

  var steps: [Step]
  /// The name of the association in fetched rows and decoded records.
  var key: String

  var isToMany: Bool { steps.contains { $0.isToMany } }

  /// The destination table's relation: filters, orderings, selection, nested
  /// associations of the association itself.
  var destination: SQLRelation {
    get { steps[steps.count - 1].relation }
    set { steps[steps.count - 1].relation = newValue }
  }

  /// The association as a join of its origin: intermediate tables joined,
  /// the destination included (selected) or only joined.
  func join(kind: SQLJoin.Kind, isIncluded: Bool) -> SQLJoin {
    var join: SQLJoin?
    for (index, step) in steps.enumerated().reversed() {
      var relation = step.relation
      let isDestination = index == steps.count - 1
      if !isDestination {
        // Intermediate tables are joined, never selected.
        relation.selection = []
        relation.ordering = []
      }
      if let inner = join { relation.joins.append(inner) }
      join = SQLJoin(
        kind: kind, relation: relation,
        condition: { db, parent, child in try step.condition(db, origin: parent, destination: child) },
        isIncluded: isDestination && isIncluded, key: key, isToMany: isToMany)
    }
    return join!
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
public protocol Association<OriginRowDecoder, RowDecoder>: Sendable {
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
  private func mapDestination(_ transform: (inout SQLRelation) -> Void) -> Self {
    var association = self
    transform(&association.sqlAssociation.destination)
    return association
  }

  /// Keeps the associated rows that match `predicate`.
  public func filter(_ predicate: some SQLExpressible) -> Self {
    mapDestination { $0.filters.append(.expression(predicate.sqlExpression)) }
  }

  /// Keeps the associated rows that match raw SQL.
  public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
    filter(SQLExpression(sql: sql, arguments: arguments))
  }

  /// Orders the associated rows (in prefetched to-many associations, and
  /// after the origin's ordering in joined requests).
  public func order(_ orderings: any SQLOrderingTerm...) -> Self {
    mapDestination { $0.ordering = orderings.map(\.sqlOrdering) }
  }

  /// Selects the given columns of the associated table.
  public func select(_ selection: any SQLSelectable...) -> Self {
    mapDestination { $0.selection = selection.map(\.sqlSelection) }
  }

  /// Selects more columns of the associated table.
  public func annotated(with selection: any SQLSelectable...) -> Self {
    mapDestination { $0.selection += selection.map(\.sqlSelection) }
  }

  /// The same association under another name in fetched rows and records.
  public func forKey(_ key: String) -> Self {
    var association = self
    association.sqlAssociation.key = key
    return association
  }

  /// The same association under the name of a coding key.
  public func forKey(_ key: some CodingKey) -> Self {
    forKey(key.stringValue)
  }

  /// Lets other parts of the request refer to the associated table through `alias`.
  public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
    mapDestination { relation in
      alias.alias.tableName = relation.tableName
      relation.alias = alias.alias
    }
  }

  /// Includes an association of the associated table, when present.
  public func including<A: Association>(optional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    mapDestination { $0.add(association.sqlAssociation, kind: .left, isIncluded: true) }
  }

  /// Includes an association of the associated table, which must be present.
  public func including<A: Association>(required association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    mapDestination { $0.add(association.sqlAssociation, kind: .inner, isIncluded: true) }
  }

  /// Includes every row of a to-many association of the associated table.
  public func including<A: AssociationToMany>(all association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    mapDestination { $0.addPrefetch(association.sqlAssociation) }
  }

  /// Joins an association of the associated table, when present, without selecting it.
  public func joining<A: Association>(optional association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    mapDestination { $0.add(association.sqlAssociation, kind: .left, isIncluded: false) }
  }

  /// Joins an association of the associated table, which must be present.
  public func joining<A: Association>(required association: A) -> Self
  where A.OriginRowDecoder == RowDecoder {
    mapDestination { $0.add(association.sqlAssociation, kind: .inner, isIncluded: false) }
  }
}

extension SQLRelation {
  /// Adds an association as a join.
  mutating func add(_ association: SQLAssociation, kind: SQLJoin.Kind, isIncluded: Bool) {
    var association = association
    // Each use of an association joins its own copy of the tables.
    for index in association.steps.indices where !association.steps[index].relation.alias.isUserAlias {
      association.steps[index].relation = association.steps[index].relation.copiedAlias()
    }
    joins.append(association.join(kind: kind, isIncluded: isIncluded))
  }
}
