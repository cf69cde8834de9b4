import Foundation
import Sealite
import Testing

// MARK: - Foreign keys

private struct Person: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey).forKey("writtenBooks")
  static let translatedBooks = hasMany(Book.self, using: Book.translatorForeignKey).forKey("translatedBooks")
}

/// Two foreign keys to `person`: associations must say which one they use.
private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var title: String
  var authorId: Int64
  var translatorId: Int64?
  static let authorForeignKey = ForeignKey(["authorId"])
  static let translatorForeignKey = ForeignKey([Column("translatorId")], to: [Column("id")])
  static let author = belongsTo(Person.self, key: "author", using: authorForeignKey)
  static let translator = belongsTo(Person.self, key: "translator", using: translatorForeignKey)
  static let ambiguousPerson = belongsTo(Person.self)
  static let notes = hasMany(Note.self)
}

/// No foreign key in the schema.
private struct Note: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var bookId: Int64
  var text: String
  static let book = belongsTo(Book.self)
  static let explicitBook = belongsTo(Book.self, using: ForeignKey(["bookId"]))
}

private func makeBookDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE book (
          id INTEGER PRIMARY KEY, title TEXT NOT NULL,
          authorId INTEGER NOT NULL REFERENCES person(id),
          translatorId INTEGER REFERENCES person(id));
        CREATE TABLE note (id INTEGER PRIMARY KEY, bookId INTEGER NOT NULL, text TEXT NOT NULL);
        """)
    try Person(id: 1, name: "Tolstoy").insert(db)
    try Person(id: 2, name: "Garnett").insert(db)
    try Person(id: 3, name: "Dostoevsky").insert(db)
    try Book(id: 1, title: "War and Peace", authorId: 1, translatorId: 2).insert(db)
    try Book(id: 2, title: "Anna Karenina", authorId: 1, translatorId: nil).insert(db)
    try Book(id: 3, title: "The Idiot", authorId: 3, translatorId: 2).insert(db)
    try Note(id: 1, bookId: 3, text: "read twice").insert(db)
  }
  return dbQueue
}

@Suite("Associations: foreign keys")
struct AssociationForeignKeyTests {
  @Test("an explicit ForeignKey picks one of several foreign keys between two tables")
  func explicitForeignKeys() throws {
    struct BookInfo: Decodable, FetchableRecord {
      var book: Book
      var author: Person
      var translator: Person?
    }
    let dbQueue = try makeBookDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(required: Book.author).including(optional: Book.translator).order(Column("id"))
        .asRequest(of: BookInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.author.name) == ["Tolstoy", "Tolstoy", "Dostoevsky"])
    #expect(infos.map(\.translator?.name) == ["Garnett", nil, "Garnett"])
  }

  @Test("hasMany reuses the foreign key declared on the other side")
  func symmetricForeignKeys() throws {
    struct PersonInfo: Decodable, FetchableRecord {
      var person: Person
      var writtenBooks: [Book]
      var translatedBooks: [Book]
    }
    let dbQueue = try makeBookDatabase()
    let infos = try dbQueue.read { db in
      try Person
        .including(all: Person.writtenBooks.order(Column("id")))
        .including(all: Person.translatedBooks.order(Column("id")))
        .order(Column("id"))
        .asRequest(of: PersonInfo.self).fetchAll(db)
    }
    #expect(infos.map { $0.writtenBooks.map(\.id) } == [[1, 2], [], [3]])
    #expect(infos.map { $0.translatedBooks.map(\.id) } == [[], [1, 3], []])
  }

  @Test("several foreign keys to the same table: a clear error that names both tables")
  func ambiguousForeignKey() throws {
    let dbQueue = try makeBookDatabase()
    try dbQueue.read { db in
      let error = try #require(throws: DatabaseError.self) {
        try Book.including(required: Book.ambiguousPerson).fetchAll(db)
      }
      let message = error.message ?? ""
      #expect(message.contains("book"))
      #expect(message.contains("person"))
      #expect(message.contains("authorId") && message.contains("translatorId"))
    }
  }

  @Test("no foreign key in the schema: a clear error that names both tables")
  func missingForeignKey() throws {
    let dbQueue = try makeBookDatabase()
    try dbQueue.read { db in
      let error = try #require(throws: DatabaseError.self) {
        try Note.including(required: Note.book).fetchAll(db)
      }
      let message = error.message ?? ""
      #expect(message.contains("note"))
      #expect(message.contains("book"))
      let hasManyError = try #require(throws: DatabaseError.self) {
        try Book.including(all: Book.notes).fetchAll(db)
      }
      #expect(hasManyError.message?.contains("note") == true)
      #expect(hasManyError.message?.contains("book") == true)
    }
  }

  @Test("an explicit ForeignKey works where the schema declares none")
  func explicitKeyWithoutSchema() throws {
    struct NoteInfo: Decodable, FetchableRecord {
      var note: Note
      var book: Book
    }
    let dbQueue = try makeBookDatabase()
    let infos = try dbQueue.read { db in
      try Note.including(required: Note.explicitBook.forKey("book")).asRequest(of: NoteInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.book.title) == ["The Idiot"])
  }

  @Test("ForeignKey(_:to:) links to columns that are not the primary key")
  func foreignKeyToOtherColumns() throws {
    struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
      var id: Int64
      var isoCode: String
      var name: String
    }
    struct City: Codable, FetchableRecord, PersistableRecord {
      var id: Int64
      var countryIsoCode: String
      var name: String
      static let country = belongsTo(Country.self, using: ForeignKey(["countryIsoCode"], to: ["isoCode"]))
    }
    struct CityInfo: Decodable, FetchableRecord {
      var city: City
      var country: Country
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE country (id INTEGER PRIMARY KEY, isoCode TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
          CREATE TABLE city (id INTEGER PRIMARY KEY, countryIsoCode TEXT NOT NULL, name TEXT NOT NULL);
          """)
      // Ids and codes are out of step: a join on the primary key would pair them wrongly.
      try Country(id: 1, isoCode: "PT", name: "Portugal").insert(db)
      try Country(id: 2, isoCode: "FR", name: "France").insert(db)
      try City(id: 1, countryIsoCode: "FR", name: "Lyon").insert(db)
      try City(id: 2, countryIsoCode: "PT", name: "Porto").insert(db)
    }
    let infos = try dbQueue.read { db in
      try City.including(required: City.country).order(Column("id")).asRequest(of: CityInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.country.name) == ["France", "Portugal"])
  }

  @Test("a composite foreign key is inferred from the schema")
  func compositeForeignKey() throws {
    struct Edition: Codable, FetchableRecord, PersistableRecord, Equatable {
      var isbn: String
      var language: String
      var title: String
      static let printings = hasMany(Printing.self)
    }
    struct Printing: Codable, FetchableRecord, PersistableRecord, Equatable {
      var id: Int64
      var editionIsbn: String
      var editionLanguage: String
      var year: Int
      static let edition = belongsTo(Edition.self)
    }
    struct PrintingInfo: Decodable, FetchableRecord {
      var printing: Printing
      var edition: Edition
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE edition (isbn TEXT, language TEXT, title TEXT NOT NULL, PRIMARY KEY (isbn, language));
          CREATE TABLE printing (
            id INTEGER PRIMARY KEY, editionIsbn TEXT NOT NULL, editionLanguage TEXT NOT NULL, year INTEGER,
            FOREIGN KEY (editionIsbn, editionLanguage) REFERENCES edition(isbn, language));
          """)
      try Edition(isbn: "111", language: "en", title: "War and Peace").insert(db)
      try Edition(isbn: "111", language: "fr", title: "Guerre et Paix").insert(db)
      try Printing(id: 1, editionIsbn: "111", editionLanguage: "fr", year: 1960).insert(db)
      try Printing(id: 2, editionIsbn: "111", editionLanguage: "en", year: 1970).insert(db)
      try Printing(id: 3, editionIsbn: "111", editionLanguage: "fr", year: 1980).insert(db)
    }
    try dbQueue.read { db in
      let infos = try Printing.including(required: Printing.edition).order(Column("id"))
        .asRequest(of: PrintingInfo.self).fetchAll(db)
      #expect(infos.map(\.edition.title) == ["Guerre et Paix", "War and Peace", "Guerre et Paix"])
      let rows = try Row.fetchAll(
        db, Edition.including(all: Edition.printings.order(Column("year"))).order(Column("language")))
      #expect(
        rows.map { $0.prefetchedRows["printings"]?.map { $0["year"] as Int } } == [[1970], [1960, 1980]])
      let counts = try Row.fetchAll(
        db, Edition.annotated(with: Edition.printings.count).order(Column("language")))
      #expect(counts.map { $0["printingCount"] as Int } == [1, 2])
    }
  }
}

// MARK: - Self joins and table aliases

private struct Employee: Codable, FetchableRecord, PersistableRecord, Hashable {
  var id: Int64
  var managerId: Int64?
  var name: String
  var salary: Int
  static let manager = belongsTo(Employee.self, key: "manager")
  static let subordinates = hasMany(Employee.self, key: "subordinates")
}

/// Ada manages Ben and Cy; Ben manages Dot, who earns more than he does.
private func makeEmployeeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE employee (
          id INTEGER PRIMARY KEY, managerId INTEGER REFERENCES employee(id),
          name TEXT NOT NULL, salary INTEGER NOT NULL);
        """)
    try Employee(id: 1, managerId: nil, name: "Ada", salary: 300).insert(db)
    try Employee(id: 2, managerId: 1, name: "Ben", salary: 150).insert(db)
    try Employee(id: 3, managerId: 1, name: "Cy", salary: 120).insert(db)
    try Employee(id: 4, managerId: 2, name: "Dot", salary: 200).insert(db)
  }
  return dbQueue
}

@Suite("Associations: self joins and table aliases")
struct AssociationAliasTests {
  @Test("an employee is fetched with its manager and its subordinates")
  func selfJoin() throws {
    struct EmployeeInfo: Decodable, FetchableRecord {
      var employee: Employee
      var manager: Employee?
      var subordinates: Set<Employee>
    }
    let dbQueue = try makeEmployeeDatabase()
    let infos = try dbQueue.read { db in
      try Employee.including(optional: Employee.manager).including(all: Employee.subordinates)
        .order(Column("id"))
        .asRequest(of: EmployeeInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.employee.name) == ["Ada", "Ben", "Cy", "Dot"])
    #expect(infos.map(\.manager?.name) == [nil, "Ada", "Ada", "Ben"])
    #expect(infos.map { Set($0.subordinates.map(\.name)) } == [["Ben", "Cy"], ["Dot"], [], []])
  }

  @Test("a manager's manager is a second alias of the same table")
  func twoLevelSelfJoin() throws {
    struct EmployeeInfo: Decodable, FetchableRecord {
      var employee: Employee
      var manager: Employee?
      var grandManager: Employee?
    }
    let dbQueue = try makeEmployeeDatabase()
    let request =
      Employee
      .including(optional: Employee.manager.including(optional: Employee.manager.forKey("grandManager")))
      .order(Column("id"))
    let rows = try dbQueue.read { db in try Row.fetchAll(db, request) }
    #expect(rows.map { $0.scopes["manager"]?["name"] as String? } == [nil, "Ada", "Ada", "Ben"])
    #expect(
      rows.map { $0.scopes["manager"]?.scopes["grandManager"]?["name"] as String? } == [nil, nil, nil, "Ada"])
    // GRDB decodes the tree of scopes into a flat record.
    let infos = try dbQueue.read { db in try request.asRequest(of: EmployeeInfo.self).fetchAll(db) }
    #expect(infos.map(\.manager?.name) == [nil, "Ada", "Ada", "Ben"])
    #expect(infos.map(\.grandManager?.name) == [nil, nil, nil, "Ada"])
  }

  @Test("distinct aliases compare an employee with its manager")
  func compareWithManager() throws {
    let dbQueue = try makeEmployeeDatabase()
    let employeeAlias = TableAlias<Employee>()
    let managerAlias = TableAlias<Employee>()
    let names = try dbQueue.read { db in
      try Employee.aliased(employeeAlias)
        .joining(required: Employee.manager.aliased(managerAlias))
        .filter(employeeAlias[Column("salary")] > managerAlias[Column("salary")])
        .fetchAll(db).map(\.name)
    }
    #expect(names == ["Dot"])
  }

  @Test("a filter on the joined table's alias is not confused with the origin's columns")
  func unqualifiedColumnsBelongToTheirTable() throws {
    let dbQueue = try makeEmployeeDatabase()
    let names = try dbQueue.read { db in
      // "name" in the association filter is the manager's name.
      try Employee.joining(required: Employee.manager.filter(Column("name") == "Ada"))
        .filter(Column("salary") < 200)
        .order(Column("name"))
        .fetchAll(db).map(\.name)
    }
    #expect(names == ["Ben", "Cy"])
  }

  @Test("a request is ordered by a column of an aliased associated table first")
  func orderByAliasedColumn() throws {
    let dbQueue = try makeEmployeeDatabase()
    let managerAlias = TableAlias<Employee>()
    let names = try dbQueue.read { db in
      try Employee.joining(required: Employee.manager.aliased(managerAlias))
        .order(managerAlias[Column("name")].desc, Column("name"))
        .fetchAll(db).map(\.name)
    }
    #expect(names == ["Dot", "Ben", "Cy"])
  }

  @Test("named aliases can be used in SQL snippets")
  func namedAliasesInSQL() throws {
    let dbQueue = try makeEmployeeDatabase()
    let names = try dbQueue.read { db in
      try Employee.aliased(TableAlias(name: "e"))
        .joining(
          required: Employee.manager.aliased(TableAlias(name: "m"))
            .filter(sql: "m.salary >= ?", arguments: [150])
        )
        .filter(sql: "e.salary < m.salary")
        .order(sql: "e.name")
        .fetchAll(db).map(\.name)
    }
    #expect(names == ["Ben", "Cy"])
  }

  @Test("having on a self-referential to-many aggregate")
  func selfAggregate() throws {
    let dbQueue = try makeEmployeeDatabase()
    try dbQueue.read { db in
      let managers = try Employee.having(Employee.subordinates.count >= 1).order(Column("id")).fetchAll(db)
      #expect(managers.map(\.name) == ["Ada", "Ben"])
      let rows = try Row.fetchAll(
        db, Employee.annotated(with: Employee.subordinates.count).order(Column("id")))
      #expect(rows.map { $0["subordinateCount"] as Int } == [2, 1, 0, 0])
    }
  }
}
