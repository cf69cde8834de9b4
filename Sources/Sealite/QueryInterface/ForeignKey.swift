/// The columns that link two tables of an association, when the schema does not
/// say it unambiguously:
///
///     static let author = belongsTo(Author.self, using: ForeignKey(["authorId"]))
///     static let translator = belongsTo(Person.self, using: ForeignKey(["translatorId"], to: ["id"]))
public struct ForeignKey: Sendable, Equatable {
  /// The referencing columns (in the table that holds the foreign key).
  let originColumns: [String]
  /// The referenced columns; nil for the referenced table's primary key.
  let destinationColumns: [String]?

  /// A foreign key from the given columns to the given columns (or the primary key).
  public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
    self.originColumns = originColumns
    self.destinationColumns = destinationColumns
  }

  /// A foreign key from the given columns to the given columns (or the primary key).
  public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
    self.init(originColumns.map { $0.name }, to: destinationColumns?.map { $0.name })
  }
}

/// Column pairs of a foreign key: `referencing[i]` refers to `referenced[i]`.
struct ResolvedForeignKey: Sendable {
  let referencing: [String]
  let referenced: [String]
}

extension Database {
  /// The foreign key from `referencingTable` to `referencedTable`: the one
  /// given, completed from the schema, or the only one the schema declares.
  /// Throws a clear error when there is none or more than one.
  func resolveForeignKey(
    from referencingTable: String, to referencedTable: String, explicit: ForeignKey?
  ) throws -> ResolvedForeignKey {
    let rows = try Row.fetchAll(
      self, sql: "PRAGMA foreign_key_list(\(referencingTable.quotedDatabaseIdentifier))")
    var declared: [Int: (table: String, from: [String], to: [String?])] = [:]
    for row in rows.sorted(by: { ($0["seq"] as Int? ?? 0) < ($1["seq"] as Int? ?? 0) }) {
      let id: Int = row["id"] ?? 0
      var entry = declared[id] ?? (row["table"] ?? "", [], [])
      entry.from.append(row["from"] ?? "")
      entry.to.append(row["to"])
      declared[id] = entry
    }
    let candidates = declared.keys.sorted().compactMap { declared[$0] }.filter { entry in
      guard entry.table.sameName(as: referencedTable) else { return false }
      if let explicit {
        return entry.from.map { $0.nameKey } == explicit.originColumns.map { $0.nameKey }
      }
      return true
    }
    func referencedPrimaryKey() throws -> [String] {
      let primaryKey = try recordPrimaryKey(referencedTable)
      return primaryKey.columns
    }
    if candidates.count == 1 {
      let entry = candidates[0]
      let referenced: [String]
      if let destination = explicit?.destinationColumns {
        referenced = destination
      } else if entry.to.allSatisfy({ $0 != nil }) {
        referenced = entry.to.map { $0! }
      } else {
        referenced = try referencedPrimaryKey()
      }
      // A key the program gives whole is written as it spells it; one it
      // gives only the origin columns of is the schema's, spelled as the
      // schema does (GRDB's rule).
      let referencing =
        explicit.flatMap { $0.destinationColumns == nil ? nil : $0.originColumns } ?? entry.from
      return ResolvedForeignKey(referencing: referencing, referenced: referenced)
    }
    if let explicit {
      let referenced = try explicit.destinationColumns ?? referencedPrimaryKey()
      guard referenced.count == explicit.originColumns.count else {
        throw DatabaseError.misuse(
          "foreign key from \(referencingTable)(\(explicit.originColumns.joined(separator: ", "))) to "
            + "\(referencedTable)(\(referenced.joined(separator: ", "))) has mismatched column counts")
      }
      return ResolvedForeignKey(referencing: explicit.originColumns, referenced: referenced)
    }
    if candidates.isEmpty {
      throw DatabaseError.misuse(
        "could not infer a foreign key from table \(referencingTable) to table \(referencedTable): the schema "
          + "declares none; give one with `using: ForeignKey([...])`")
    }
    let descriptions = candidates.map { "(\($0.from.joined(separator: ", ")))" }.joined(separator: ", ")
    throw DatabaseError.misuse(
      "could not infer a foreign key from table \(referencingTable) to table \(referencedTable): the schema "
        + "declares several \(descriptions); give one with `using: ForeignKey([...])`")
  }
}
