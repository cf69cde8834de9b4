import Foundation

/// Collects the arguments of generated SQL, or inlines values as SQL literals
/// where SQLite takes no arguments (schema statements), and names table aliases.
final class SQLGenerationContext {
  /// Nil when values are inlined.
  private(set) var arguments: StatementArguments?
  private var aliasNames: [SQLTableAlias: String] = [:]
  /// The table each registered alias stands for in this request.
  private var aliasTables: [SQLTableAlias: String] = [:]
  /// True when columns are qualified with their table (joins).
  var qualifiesColumns = false
  /// The connection the SQL is generated for, when known (association
  /// aggregates read the schema).
  let db: Database?
  /// The context of the enclosing query, for a subquery: a correlated
  /// subquery names the tables of its enclosing queries as they do.
  private(set) var parent: SQLGenerationContext?
  /// What a first rendering of the query noted for the second one, while
  /// a query is rendered twice (see ``RenderingNotes``); nil otherwise.
  var renderingNotes: RenderingNotes?

  /// A context that binds values as arguments.
  init(db: Database? = nil) {
    self.db = db
    arguments = StatementArguments()
  }

  /// A context for a subquery: its own table names and qualification, the
  /// same connection. Its arguments are appended to the parent's afterwards.
  static func nested(in parent: SQLGenerationContext) -> SQLGenerationContext {
    let context = SQLGenerationContext(db: parent.db)
    if parent.arguments == nil { context.arguments = nil }
    context.parent = parent
    return context
  }

  /// A context that inlines values as literals. A request rendered in it
  /// needs `db`.
  static func inliningValues(db: Database? = nil) -> SQLGenerationContext {
    let context = SQLGenerationContext(db: db)
    context.arguments = nil
    return context
  }

  var inlinesValues: Bool { arguments == nil }

  /// A context in the state of this one, for a first rendering whose text
  /// and arguments are thrown away: the second rendering, in this context,
  /// names the tables as the first did.
  func rehearsal(notes: RenderingNotes) -> SQLGenerationContext {
    let context = SQLGenerationContext(db: db)
    if arguments == nil { context.arguments = nil }
    context.aliasNames = aliasNames
    context.aliasTables = aliasTables
    context.qualifiesColumns = qualifiesColumns
    context.parent = parent
    context.renderingNotes = notes
    return context
  }

  /// Renders a value: `?` with an argument, or a literal.
  func append(_ value: DatabaseValue) -> String {
    if arguments != nil {
      arguments!.values.append(value)
      return "?"
    }
    return SQLGenerationContext.literal(value)
  }

  /// Appends raw arguments (from an SQL literal). Fails when inlining: schema
  /// statements can not take arguments.
  func append(_ literalArguments: StatementArguments) throws {
    guard !literalArguments.isEmpty else { return }
    guard arguments != nil else {
      throw DatabaseError.misuse(
        "statement arguments are not allowed here: SQLite takes none in schema statements")
    }
    arguments!.append(contentsOf: literalArguments)
  }

  /// Names an alias: its user-given name, or the table name of the request
  /// that uses it, made unique.
  func name(of alias: SQLTableAlias) -> String {
    name(of: alias, tableName: nil)
  }

  private func name(of alias: SQLTableAlias, tableName: String?) -> String {
    if let name = aliasNames[alias] { return name }
    if tableName == nil, let name = enclosingName(of: alias) { return name }
    let base = alias.userName ?? alias.tableName ?? tableName ?? "t"
    var name = base
    var suffix = 1
    let used = Set(aliasNames.values.map { $0.nameKey })
    while used.contains(name.nameKey) {
      suffix += 1
      name = "\(base)\(suffix)"
    }
    aliasNames[alias] = name
    return name
  }

  /// Reserves an alias's name. An unnamed user alias is named after
  /// `tableName`, the table it stands for in this request.
  func register(_ alias: SQLTableAlias, tableName: String) {
    register([(alias, tableName)])
  }

  /// Names the tables of a request, given in the order they appear, as GRDB
  /// names them: a table that appears once keeps its name; when it appears
  /// several times, each copy is numbered (`"b1"`, `"b2"`), but those the
  /// program named. Aliases named already keep their names.
  func register(_ tables: [(alias: SQLTableAlias, tableName: String)]) {
    if tables.count == 1 && aliasNames.isEmpty && aliasTables.isEmpty {
      // A request of one table, the commonest: it keeps its name, and the
      // groups below would find nothing else.
      let (alias, tableName) = tables[0]
      aliasTables[alias] = tableName
      aliasNames[alias] = alias.userName ?? alias.tableName ?? tableName
      return
    }
    var groups: [(key: String, aliases: [SQLTableAlias])] = []
    var groupIndex: [String: Int] = [:]
    for (alias, tableName) in tables {
      aliasTables[alias] = tableName
      guard aliasNames[alias] == nil, !groups.contains(where: { $0.aliases.contains(alias) }) else {
        continue
      }
      let key = (alias.userName ?? alias.tableName ?? tableName).nameKey
      if let index = groupIndex[key] {
        groups[index].aliases.append(alias)
      } else {
        groupIndex[key] = groups.count
        groups.append((key, [alias]))
      }
    }
    var used = Set(aliasNames.values.map { $0.nameKey })
    for group in groups where group.aliases.count == 1 {
      let alias = group.aliases[0]
      let name = alias.userName ?? alias.tableName ?? aliasTables[alias] ?? "t"
      if used.insert(name.nameKey).inserted { aliasNames[alias] = name }
    }
    for group in groups {
      // A single table whose name was taken by an enclosing part of the
      // query is numbered as well.
      let pending = group.aliases.filter { aliasNames[$0] == nil }
      var index = 1
      for alias in pending {
        if let userName = alias.userName, group.aliases.count > 1 {
          aliasNames[alias] = userName
          continue
        }
        let base = (alias.userName ?? alias.tableName ?? aliasTables[alias] ?? "t").digitlessRadical
        var name: String
        repeat {
          name = "\(base)\(index)"
          index += 1
        } while used.contains(name.nameKey)
        used.insert(name.nameKey)
        aliasNames[alias] = name
      }
    }
  }

  /// The table `alias` stands for: its own, or the one of the request that
  /// registered it.
  func tableName(of alias: SQLTableAlias) -> String? {
    alias.tableName ?? aliasTables[alias] ?? parent?.tableName(of: alias)
  }

  /// The name an enclosing query gave `alias`, if one registered it.
  private func enclosingName(of alias: SQLTableAlias) -> String? {
    guard let parent else { return nil }
    if parent.aliasTables[alias] != nil { return parent.aliasNames[alias] }
    return parent.enclosingName(of: alias)
  }

  func qualifiedColumn(_ columnName: String, alias: SQLTableAlias?) -> String {
    // A column of an enclosing query's table is always qualified: the
    // subquery's own tables could have a column of the same name.
    if let alias,
      qualifiesColumns || alias.forcesQualification
        || (aliasTables[alias] == nil && enclosingName(of: alias) != nil)
    {
      return "\(name(of: alias).quotedDatabaseIdentifier).\(columnName.quotedDatabaseIdentifier)"
    }
    return columnName.quotedDatabaseIdentifier
  }

  /// An SQL literal for a value.
  static func literal(_ value: DatabaseValue) -> String {
    switch value.storage {
    case .null:
      return "NULL"
    case .int64(let int):
      return String(int)
    case .double(let double):
      if double.isNaN { return "NULL" }
      if double.isInfinite { return double > 0 ? "9e999" : "-9e999" }
      return "\(double)"
    case .string(let string):
      return string.quotedDatabaseLiteral
    case .blob(let data):
      return "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
    }
  }
}

extension String {
  /// The name without its trailing digits: `"b"` for `"b1"`.
  fileprivate var digitlessRadical: String {
    String(dropLast(reversed().prefix { $0.isASCII && $0.isNumber }.count))
  }

  /// The string as an SQL identifier, in double quotes: `"player"`, `"a""b"`.
  public var quotedDatabaseIdentifier: String { quoted(by: "\"") }

  /// The string as an SQL string literal, in single quotes: `'it''s'`.
  var quotedDatabaseLiteral: String { quoted(by: "'") }

  /// The string between two `quote`s, with every `quote` inside doubled. SQLite
  /// reads quotes as bytes, so quotes are doubled scalar by scalar: a quote
  /// followed by a combining mark is a single Character, which Character-based
  /// replacement would leave alone, ending the quoted text early.
  private func quoted(by quote: Unicode.Scalar) -> String {
    // Most strings hold no quote at all.
    if !utf8.contains(UInt8(quote.value)) { return String(quote) + self + String(quote) }
    var result = String.UnicodeScalarView()
    result.append(quote)
    for scalar in unicodeScalars {
      result.append(scalar)
      if scalar == quote { result.append(quote) }
    }
    result.append(quote)
    return String(result)
  }
}

/// What the first of two renderings of a query notes, in the order it meets
/// it, for the second: a part of the query that depends on another part
/// rendered after it (association aggregates of one key share their
/// filters) reads, the second time, what the first time saw of the whole.
final class RenderingNotes {
  /// True during the first rendering, false during the second.
  var isRecording = true
  private(set) var entries: [Any] = []
  private var replayed = 0

  /// During the first rendering: notes `entry`.
  func record(_ entry: Any) {
    entries.append(entry)
  }

  /// During the second rendering: the index of the entry that the first
  /// rendering recorded at this point.
  func nextIndex() -> Int {
    defer { replayed += 1 }
    return replayed
  }
}
