import Foundation
import Sealite
import Testing

// Authors, their books and paintings; tags reached through a link table.

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var name: String
  static let books = hasMany(Book.self)
  static let paintings = hasMany(Painting.self)
  static let tags = hasMany(Tag.self, through: books, using: Book.tags)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
  var id: Int64
  var authorId: Int64
  var kind: String
  var year: Int
  var price: Double?
  static let bookTags = hasMany(BookTag.self)
  static let tags = hasMany(Tag.self, through: bookTags, using: BookTag.tag)
}

private struct Painting: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var authorId: Int64
  var title: String
}

private struct Tag: Codable, FetchableRecord, PersistableRecord {
  var id: Int64
  var label: String
}

private struct BookTag: Codable, FetchableRecord, PersistableRecord {
  var bookId: Int64
  var tagId: Int64
  static let tag = belongsTo(Tag.self)
}

/// Ann: 3 books (2 novels, 1 play), 1 painting. Bob: 1 novel, 2 paintings.
/// Cid: nothing. Dee: 1 play without price.
private func makeDatabase() throws -> DatabaseQueue {
  let dbQueue = try DatabaseQueue()
  try dbQueue.write { db in
    try db.execute(
      sql: """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE book (
          id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id),
          kind TEXT NOT NULL, year INTEGER NOT NULL, price REAL);
        CREATE TABLE painting (
          id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
        CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
        CREATE TABLE bookTag (
          bookId INTEGER NOT NULL REFERENCES book(id), tagId INTEGER NOT NULL REFERENCES tag(id),
          PRIMARY KEY (bookId, tagId));
        """)
    for (id, name) in [(1, "Ann"), (2, "Bob"), (3, "Cid"), (4, "Dee")] {
      try Author(id: Int64(id), name: name).insert(db)
    }
    try Book(id: 1, authorId: 1, kind: "novel", year: 2001, price: 10).insert(db)
    try Book(id: 2, authorId: 1, kind: "novel", year: 2011, price: 20).insert(db)
    try Book(id: 3, authorId: 1, kind: "play", year: 2005, price: 6).insert(db)
    try Book(id: 4, authorId: 2, kind: "novel", year: 1999, price: 15).insert(db)
    try Book(id: 5, authorId: 4, kind: "play", year: 2020, price: nil).insert(db)
    try Painting(id: 1, authorId: 1, title: "Sunrise").insert(db)
    try Painting(id: 2, authorId: 2, title: "Dusk").insert(db)
    try Painting(id: 3, authorId: 2, title: "Night").insert(db)
    try Tag(id: 1, label: "classic").insert(db)
    try Tag(id: 2, label: "funny").insert(db)
    // Ann's two novels share the "classic" tag: she has one distinct tag through two paths.
    for (bookId, tagId) in [(1, 1), (2, 1), (4, 1), (4, 2)] {
      try BookTag(bookId: Int64(bookId), tagId: Int64(tagId)).insert(db)
    }
  }
  return dbQueue
}

@Suite("Association aggregates")
struct AssociationAggregateTests {
  @Test("annotated(with:) adds each aggregate under GRDB's default name")
  func defaultNames() throws {
    struct AuthorInfo: Decodable, FetchableRecord, Equatable {
      var author: Author
      var bookCount: Int
      var hasNoBook: Bool
      var minBookYear: Int?
      var maxBookYear: Int?
      var averageBookPrice: Double?
    }
    let dbQueue = try makeDatabase()
    let infos = try dbQueue.read { db in
      try Author
        .annotated(
          with: Author.books.count, Author.books.isEmpty, Author.books.min(Column("year")),
          Author.books.max(Column("year")), Author.books.average(Column("price"))
        )
        .order(Column("id"))
        .asRequest(of: AuthorInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.author.name) == ["Ann", "Bob", "Cid", "Dee"])
    #expect(infos.map(\.bookCount) == [3, 1, 0, 1])
    #expect(infos.map(\.hasNoBook) == [false, false, true, false])
    #expect(infos.map(\.minBookYear) == [2001, 1999, nil, 2020])
    #expect(infos.map(\.maxBookYear) == [2011, 1999, nil, 2020])
    #expect(infos.map(\.averageBookPrice) == [12, 15, nil, nil])
  }

  @Test("aggregates of one association key count the rows of both filters, as GRDB's merged joins do")
  func sameKeyFiltersMerge() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      // Distinct keys: two populations of books.
      let novels = Author.books.filter(Column("kind") == "novel").forKey("novels").count
      let plays = Author.books.filter(Column("kind") == "play").forKey("plays").count
      let apart = try Row.fetchAll(db, Author.annotated(with: novels, plays).order(Column("id")))
      #expect(
        apart.map { [$0["novelCount"], $0["playCount"]] as [Int] } == [[2, 1], [1, 0], [0, 0], [0, 1]])

      // One key: one population, the books that are both novels and plays (none).
      let sameKeyNovels = Author.books.filter(Column("kind") == "novel").count.forKey("novelCount")
      let sameKeyPlays = Author.books.filter(Column("kind") == "play").count.forKey("playCount")
      let merged = try Row.fetchAll(
        db, Author.annotated(with: sameKeyNovels, sameKeyPlays).order(Column("id")))
      #expect(
        merged.map { [$0["novelCount"], $0["playCount"]] as [Int] } == [[0, 0], [0, 0], [0, 0], [0, 0]])

      // One key, filters that overlap: the books of both, novels after 2005 (Ann's of 2011).
      let recentNovels = try Row.fetchAll(
        db,
        Author.annotated(
          with: Author.books.filter(Column("kind") == "novel").count,
          Author.books.filter(Column("year") > 2005).max(Column("year"))
        ).order(Column("id")))
      #expect(recentNovels.map { $0["bookCount"] as Int } == [1, 0, 0, 0])
      #expect(recentNovels.map { $0["maxBookYear"] as Int? } == [2011, nil, nil, nil])

      // The same filter twice is written once; and having shares the population too.
      let sql = try capturedSQL(db) {
        _ = try Row.fetchAll(
          db,
          Author.annotated(with: Author.books.filter(Column("kind") == "novel").count)
            .having(Author.books.filter(Column("kind") == "novel").count >= 2))
      }
      #expect(sql.last?.components(separatedBy: "\"kind\" = ?").count == 3, "\(sql)")
      let prolific = try Row.fetchAll(
        db,
        Author.annotated(with: Author.books.filter(Column("kind") == "novel").count)
          .having(Author.books.filter(Column("year") < 2005).count >= 1)
      )
      // Ann's novel of 2001 and Bob's of 1999: each has one book that is both.
      #expect(prolific.map { $0["bookCount"] as Int } == [1, 1])
    }
  }

  @Test("sum is NULL and total is 0 over no rows; both are named <key><Column>Sum")
  func sumAndTotal() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let sums = try Row.fetchAll(
        db, Author.annotated(with: Author.books.sum(Column("price"))).order(Column("id")))
      #expect(sums.map { $0["bookPriceSum"] as Double? } == [36, 15, nil, nil])
      let totals = try Row.fetchAll(
        db, Author.annotated(with: Author.books.total(Column("price"))).order(Column("id")))
      #expect(totals.map { $0["bookPriceSum"] as Double? } == [36, 15, 0, 0])
    }
  }

  @Test("several aggregates of different associations do not multiply each other")
  func aggregatesAreIsolated() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let rows = try Row.fetchAll(
        db,
        Author.annotated(with: Author.books.count, Author.paintings.count, Author.books.sum(Column("price")))
          .order(Column("id")))
      #expect(rows.map { $0["bookCount"] as Int } == [3, 1, 0, 1])
      #expect(rows.map { $0["paintingCount"] as Int } == [1, 2, 0, 0])
      #expect(rows.map { $0["bookPriceSum"] as Double? } == [36, 15, nil, nil])
    }
  }

  @Test("forKey names an aggregate, with a string or a coding key")
  func forKey() throws {
    struct AuthorInfo: Decodable, FetchableRecord {
      var author: Author
      var numberOfBooks: Int
      var hasBooks: Bool
      enum CodingKeys: String, CodingKey { case author, numberOfBooks, hasBooks }
    }
    let dbQueue = try makeDatabase()
    let infos = try dbQueue.read { db in
      try Author
        .annotated(
          with: Author.books.count.forKey(AuthorInfo.CodingKeys.numberOfBooks),
          (Author.books.isEmpty == false).forKey("hasBooks")
        )
        .order(Column("id"))
        .asRequest(of: AuthorInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.numberOfBooks) == [3, 1, 0, 1])
    #expect(infos.map(\.hasBooks) == [true, true, false, true])
  }

  @Test("the default name follows a filtered association's key")
  func namesFollowTheKey() throws {
    struct AuthorInfo: Decodable, FetchableRecord {
      var author: Author
      var novelCount: Int
      var playCount: Int
    }
    let dbQueue = try makeDatabase()
    let infos = try dbQueue.read { db in
      try Author
        .annotated(
          with: Author.books.filter(Column("kind") == "novel").forKey("novels").count,
          Author.books.filter(Column("kind") == "play").forKey("plays").count
        )
        .order(Column("id"))
        .asRequest(of: AuthorInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.novelCount) == [2, 1, 0, 0])
    #expect(infos.map(\.playCount) == [1, 0, 0, 1])
  }

  @Test("aggregates combine with arithmetic operators and ??")
  func aggregateOperations() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let rows = try Row.fetchAll(
        db,
        Author.annotated(
          with: (Author.books.count + Author.paintings.count).forKey("workCount"),
          (Author.books.min(Column("price")) ?? 0).forKey("cheapest")
        )
        .order(Column("id")))
      #expect(rows.map { $0["workCount"] as Int } == [4, 3, 0, 1])
      #expect(rows.map { $0["cheapest"] as Double } == [6, 15, 0, 0])
    }
  }

  @Test("having keeps the rows whose aggregate matches")
  func having() throws {
    let dbQueue = try makeDatabase()
    func names(_ request: QueryInterfaceRequest<Author>) throws -> [String] {
      try dbQueue.read { db in try request.order(Column("id")).fetchAll(db).map(\.name) }
    }
    do {
      #expect(try names(Author.having(Author.books.count > 2)) == ["Ann"])
      #expect(try names(Author.having(Author.books.count >= 1)) == ["Ann", "Bob", "Dee"])
      #expect(try names(Author.having(Author.books.isEmpty)) == ["Cid"])
      #expect(try names(Author.having(Author.books.isEmpty == false)) == ["Ann", "Bob", "Dee"])
      #expect(try names(Author.having(Author.books.max(Column("year")) >= 2010)) == ["Ann", "Dee"])
      #expect(try names(Author.having(Author.books.count > Author.paintings.count)) == ["Ann", "Dee"])
      #expect(try names(Author.having(Author.books.isEmpty && Author.paintings.isEmpty)) == ["Cid"])
      #expect(try names(Author.having(!Author.books.isEmpty && !Author.paintings.isEmpty)) == ["Ann", "Bob"])
      let novelists = Author.books.filter(Column("kind") == "novel")
      #expect(try names(Author.having(novelists.isEmpty == false)) == ["Ann", "Bob"])
      #expect(
        try names(Author.filter(Column("name") != "Ann").having(Author.books.count >= 1)) == ["Bob", "Dee"])
    }
  }

  @Test("having combines with annotated(with:) and counts")
  func havingAndAnnotated() throws {
    struct AuthorInfo: Decodable, FetchableRecord {
      var author: Author
      var bookCount: Int
    }
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let request = Author.annotated(with: Author.books.count).having(Author.paintings.count >= 1)
      let infos = try request.order(Column("id")).asRequest(of: AuthorInfo.self).fetchAll(db)
      #expect(infos.map(\.author.name) == ["Ann", "Bob"])
      #expect(infos.map(\.bookCount) == [3, 1])
      #expect(try request.fetchCount(db) == 2)
    }
  }

  @Test("an aggregate can order the request")
  func orderByAggregate() throws {
    let dbQueue = try makeDatabase()
    let names = try dbQueue.read { db in
      try Author.order(Author.paintings.count.desc, Column("name")).fetchAll(db).map(\.name)
    }
    #expect(names == ["Bob", "Ann", "Cid", "Dee"])
  }

  @Test("aggregates of a through association count distinct rows, as GRDB does")
  func throughAggregateCountsDistinctRows() throws {
    let dbQueue = try makeDatabase()
    try dbQueue.read { db in
      let rows = try Row.fetchAll(db, Author.annotated(with: Author.tags.count).order(Column("id")))
      // Ann reaches the "classic" tag through two books: one tag.
      #expect(rows.map { $0["tagCount"] as Int } == [1, 2, 0, 0])
      let tagged = try Author.having(Author.tags.count >= 2).fetchAll(db)
      #expect(tagged.map(\.name) == ["Bob"])
    }
  }
}
