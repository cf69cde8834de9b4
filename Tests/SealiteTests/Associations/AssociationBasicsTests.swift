import Foundation
import Sealite
import Testing

// A library: countries, authors, books, cover images, reviews, tags.

private struct Country: Codable, FetchableRecord, PersistableRecord, Hashable {
  var code: String
  var name: String
  static let authors = hasMany(Author.self)
}

private struct Author: Codable, FetchableRecord, PersistableRecord, Hashable {
  var id: Int64
  var name: String
  var countryCode: String?
  static let books = hasMany(Book.self)
  static let country = belongsTo(Country.self)
  static let coverImages = hasMany(CoverImage.self, through: books, using: Book.coverImage)
}

private struct Book: Codable, FetchableRecord, PersistableRecord, Hashable {
  var id: Int64
  var authorId: Int64?
  var title: String
  var year: Int
  var price: Double?
  static let author = belongsTo(Author.self)
  static let coverImage = hasOne(CoverImage.self)
  static let reviews = hasMany(Review.self)
  static let bookTags = hasMany(BookTag.self)
  static let tags = hasMany(Tag.self, through: bookTags, using: BookTag.tag)
  static let country = hasOne(Country.self, through: author, using: Author.country)
}

private struct CoverImage: Codable, FetchableRecord, PersistableRecord, Hashable {
  var id: Int64
  var bookId: Int64
  var path: String
  static let book = belongsTo(Book.self)
}

private struct Review: Codable, FetchableRecord, PersistableRecord, Hashable {
  var id: Int64
  var bookId: Int64
  var stars: Int
}

private struct Tag: Codable, FetchableRecord, PersistableRecord, Hashable {
  var id: Int64
  var label: String
}

private struct BookTag: Codable, FetchableRecord, PersistableRecord {
  var bookId: Int64
  var tagId: Int64
  static let tag = belongsTo(Tag.self)
}

private enum Library {
  static let france = Country(code: "FR", name: "France")
  static let usa = Country(code: "US", name: "United States")
  static let japan = Country(code: "JP", name: "Japan")

  static let hugo = Author(id: 1, name: "Victor Hugo", countryCode: "FR")
  static let melville = Author(id: 2, name: "Herman Melville", countryCode: "US")
  static let verne = Author(id: 3, name: "Jules Verne", countryCode: "FR")
  static let nobody = Author(id: 4, name: "Nobody", countryCode: nil)

  static let miserables = Book(id: 1, authorId: 1, title: "Les Misérables", year: 1862, price: 12.5)
  static let notreDame = Book(id: 2, authorId: 1, title: "Notre-Dame de Paris", year: 1831, price: 9)
  static let mobyDick = Book(id: 3, authorId: 2, title: "Moby-Dick", year: 1851, price: 10)
  static let twentyThousand = Book(
    id: 4, authorId: 3, title: "Twenty Thousand Leagues", year: 1870, price: nil)
  static let aroundTheWorld = Book(id: 5, authorId: 3, title: "Around the World", year: 1872, price: 8)
  static let earthToMoon = Book(id: 6, authorId: 3, title: "From the Earth to the Moon", year: 1865, price: 7)
  static let anonymous = Book(id: 7, authorId: nil, title: "Anonymous Tales", year: 1900, price: 3)

  static let books = [
    miserables, notreDame, mobyDick, twentyThousand, aroundTheWorld, earthToMoon, anonymous,
  ]

  static let miserablesCover = CoverImage(id: 1, bookId: 1, path: "miserables.png")
  static let mobyDickCover = CoverImage(id: 2, bookId: 3, path: "moby.png")

  static let novel = Tag(id: 1, label: "novel")
  static let adventure = Tag(id: 2, label: "adventure")
  static let sea = Tag(id: 3, label: "sea")

  static func makeDatabase() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE author (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT REFERENCES country(code));
          CREATE TABLE book (
            id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id),
            title TEXT NOT NULL, year INTEGER NOT NULL, price REAL);
          CREATE TABLE coverImage (
            id INTEGER PRIMARY KEY, bookId INTEGER NOT NULL UNIQUE REFERENCES book(id), path TEXT NOT NULL);
          CREATE TABLE review (
            id INTEGER PRIMARY KEY, bookId INTEGER NOT NULL REFERENCES book(id), stars INTEGER NOT NULL);
          CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
          CREATE TABLE bookTag (
            bookId INTEGER NOT NULL REFERENCES book(id), tagId INTEGER NOT NULL REFERENCES tag(id),
            PRIMARY KEY (bookId, tagId));
          """)
      for country in [france, usa, japan] { try country.insert(db) }
      for author in [hugo, melville, verne, nobody] { try author.insert(db) }
      for book in books { try book.insert(db) }
      try miserablesCover.insert(db)
      try mobyDickCover.insert(db)
      for (id, bookId, stars) in [(1, 1, 5), (2, 1, 4), (3, 3, 5), (4, 4, 3), (5, 4, 2), (6, 4, 4)] {
        try Review(id: Int64(id), bookId: Int64(bookId), stars: stars).insert(db)
      }
      for tag in [novel, adventure, sea] { try tag.insert(db) }
      for (bookId, tagId) in [(1, 1), (2, 1), (3, 1), (3, 3), (4, 2), (4, 3), (5, 2)] {
        try BookTag(bookId: Int64(bookId), tagId: Int64(tagId)).insert(db)
      }
    }
    return dbQueue
  }
}

// MARK: - Decoded shapes

private struct BookWithOptionalAuthor: Decodable, FetchableRecord, Equatable {
  var book: Book
  var author: Author?
}

private struct BookWithAuthor: Decodable, FetchableRecord, Equatable {
  var book: Book
  var author: Author
}

private struct AuthorWithBooks: Decodable, FetchableRecord, Equatable {
  var author: Author
  var books: [Book]
}

@Suite("Associations: belongsTo, hasOne, hasMany, through")
struct AssociationTypesTests {
  @Test("belongsTo includes the row the foreign key points to, nil when the key is NULL")
  func belongsToOptional() throws {
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(optional: Book.author).order(Column("id"))
        .asRequest(of: BookWithOptionalAuthor.self).fetchAll(db)
    }
    #expect(infos.map(\.book) == Library.books)
    #expect(
      infos.map(\.author) == [
        Library.hugo, Library.hugo, Library.melville, Library.verne, Library.verne, Library.verne, nil,
      ])
  }

  @Test("including(required:) drops the rows whose associated row is missing")
  func belongsToRequired() throws {
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(required: Book.author).order(Column("id"))
        .asRequest(of: BookWithAuthor.self).fetchAll(db)
    }
    #expect(infos.map(\.book.id) == [1, 2, 3, 4, 5, 6])
    #expect(infos.allSatisfy { $0.book.authorId == $0.author.id })
  }

  @Test("hasMany with including(all:) gives each author all its books, and an empty array for none")
  func hasManyIncludingAll() throws {
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Author.including(all: Author.books.order(Column("year"))).order(Column("id"))
        .asRequest(of: AuthorWithBooks.self).fetchAll(db)
    }
    #expect(infos.map(\.author) == [Library.hugo, Library.melville, Library.verne, Library.nobody])
    #expect(
      infos.map { $0.books.map(\.id) } == [[2, 1], [3], [6, 4, 5], []])
  }

  @Test("including(all:) prefetches for the fetched origin rows only: limits, fetchOne and fetchCount")
  func prefetchWithLimits() throws {
    let dbQueue = try Library.makeDatabase()
    let request = Author.including(all: Author.books.order(Column("id"))).order(Column("id"))
      .asRequest(of: AuthorWithBooks.self)
    try dbQueue.read { db in
      let page = try request.limit(2, offset: 1).fetchAll(db)
      #expect(page.map(\.author.id) == [2, 3])
      #expect(page.map { $0.books.map(\.id) } == [[3], [4, 5, 6]])
      let first = try request.fetchOne(db)
      #expect(first?.author == Library.hugo)
      #expect(first?.books.map(\.id) == [1, 2])
      #expect(try request.fetchCount(db) == 4)
    }
  }

  @Test("including(all:) decodes into a Set as well as an Array")
  func hasManyIntoSet() throws {
    struct AuthorWithBookSet: Decodable, FetchableRecord {
      var author: Author
      var books: Set<Book>
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Author.including(all: Author.books).filter(Column("id") == 3)
        .asRequest(of: AuthorWithBookSet.self).fetchAll(db)
    }
    #expect(infos.count == 1)
    #expect(infos.first?.books == [Library.twentyThousand, Library.aroundTheWorld, Library.earthToMoon])
  }

  @Test("hasOne includes the single row that refers to the record, nil when there is none")
  func hasOne() throws {
    struct BookWithCover: Decodable, FetchableRecord {
      var book: Book
      var coverImage: CoverImage?
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(optional: Book.coverImage).order(Column("id"))
        .asRequest(of: BookWithCover.self).fetchAll(db)
    }
    #expect(infos.map(\.book.id) == [1, 2, 3, 4, 5, 6, 7])
    #expect(
      infos.map(\.coverImage) == [Library.miserablesCover, nil, Library.mobyDickCover, nil, nil, nil, nil])
    let covered = try dbQueue.read { db in
      try Book.joining(required: Book.coverImage).order(Column("id")).fetchAll(db)
    }
    #expect(covered == [Library.miserables, Library.mobyDick])
  }

  @Test("hasMany(_:through:using:) reaches the rows of a many-to-many link table")
  func hasManyThrough() throws {
    struct BookWithTags: Decodable, FetchableRecord {
      var book: Book
      var tags: [Tag]
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(all: Book.tags.order(Column("label"))).order(Column("id"))
        .asRequest(of: BookWithTags.self).fetchAll(db)
    }
    #expect(
      infos.map { $0.tags.map(\.label) } == [
        ["novel"], ["novel"], ["novel", "sea"], ["adventure", "sea"], ["adventure"], [], [],
      ])
  }

  @Test("joining a hasMany through association filters on the far table")
  func hasManyThroughJoining() throws {
    let dbQueue = try Library.makeDatabase()
    let seaBooks = try dbQueue.read { db in
      try Book.joining(required: Book.tags.filter(Column("label") == "sea")).order(Column("id")).fetchAll(db)
    }
    #expect(seaBooks == [Library.mobyDick, Library.twentyThousand])
    let coveredAuthors = try dbQueue.read { db in
      try Author.joining(required: Author.coverImages).order(Column("id")).fetchAll(db)
    }
    #expect(coveredAuthors == [Library.hugo, Library.melville])
  }

  @Test("hasMany through a hasOne collects one row per intermediate row")
  func hasManyThroughHasOne() throws {
    struct AuthorWithCovers: Decodable, FetchableRecord {
      var author: Author
      var coverImages: [CoverImage]
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Author.including(all: Author.coverImages).order(Column("id"))
        .asRequest(of: AuthorWithCovers.self).fetchAll(db)
    }
    #expect(infos.map(\.coverImages) == [[Library.miserablesCover], [Library.mobyDickCover], [], []])
  }

  @Test("hasOne(_:through:using:) reaches one row through to-one associations")
  func hasOneThrough() throws {
    struct BookWithCountry: Decodable, FetchableRecord {
      var book: Book
      var country: Country?
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(optional: Book.country).order(Column("id"))
        .asRequest(of: BookWithCountry.self).fetchAll(db)
    }
    #expect(infos.map(\.book.id) == [1, 2, 3, 4, 5, 6, 7])
    #expect(
      infos.map(\.country?.code) == ["FR", "FR", "US", "FR", "FR", "FR", nil])
    let american = try dbQueue.read { db in
      try Book.joining(required: Book.country.filter(Column("code") == "US")).fetchAll(db)
    }
    #expect(american == [Library.mobyDick])
  }
}

@Suite("Associations: joining and including")
struct AssociationJoiningTests {
  @Test("joining(required:) keeps rows with an associated row and selects only the origin's columns")
  func joiningRequired() throws {
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let request = Book.joining(required: Book.author).order(Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(rows.count == 6)
      #expect(rows.first?.columnNames == ["id", "authorId", "title", "year", "price"])
      #expect(rows.first?.scopes.names == [])
      #expect(try request.fetchCount(db) == 6)
    }
  }

  @Test("joining(optional:) keeps every origin row")
  func joiningOptional() throws {
    let dbQueue = try Library.makeDatabase()
    let request = Book.joining(optional: Book.author)
    #expect(try dbQueue.read { db in try request.fetchCount(db) } == 7)
    #expect(try dbQueue.read { db in try request.order(Column("id")).fetchAll(db) } == Library.books)
  }

  @Test("a filter on an optional association restricts the joined rows, not the origin rows")
  func optionalFilterStaysInJoin() throws {
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(optional: Book.author.filter(Column("countryCode") == "US")).order(Column("id"))
        .asRequest(of: BookWithOptionalAuthor.self).fetchAll(db)
    }
    #expect(infos.count == 7)
    #expect(infos.map(\.author?.name) == [nil, nil, "Herman Melville", nil, nil, nil, nil])
  }

  @Test("filters on a required association keep only origin rows whose associated row matches")
  func requiredFilter() throws {
    let dbQueue = try Library.makeDatabase()
    let books = try dbQueue.read { db in
      try Book.joining(required: Book.author.filter(Column("name") == "Jules Verne"))
        .filter(Column("year") > 1866).order(Column("year")).fetchAll(db)
    }
    #expect(books == [Library.twentyThousand, Library.aroundTheWorld])
  }

  @Test("an association's ordering applies after the origin's ordering")
  func associationOrdering() throws {
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(required: Book.author.order(Column("name").desc))
        .order(Column("year") < 1866)
        .asRequest(of: BookWithAuthor.self).fetchAll(db)
    }
    // Books of 1866 and later first (Verne, Verne), then the others by author name, descending.
    #expect(infos.map(\.author.id) == [3, 3, 1, 1, 3, 2])
  }

  @Test("several associations can be included side by side")
  func parallelIncludes() throws {
    struct BookInfo: Decodable, FetchableRecord {
      var book: Book
      var author: Author
      var coverImage: CoverImage?
      var reviews: [Review]
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book
        .including(required: Book.author)
        .including(optional: Book.coverImage)
        .including(all: Book.reviews.order(Column("id")))
        .order(Column("id"))
        .asRequest(of: BookInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.book.id) == [1, 2, 3, 4, 5, 6])
    #expect(infos.map(\.author.id) == [1, 1, 2, 3, 3, 3])
    #expect(infos.map(\.coverImage?.path) == ["miserables.png", nil, "moby.png", nil, nil, nil])
    #expect(infos.map { $0.reviews.map(\.stars) } == [[5, 4], [], [5], [3, 2, 4], [], []])
  }

  @Test("the same association joined twice under one key is refined, not duplicated")
  func refiningRules() throws {
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      // required wins over optional, including wins over joining
      let request = Book.including(optional: Book.author).joining(required: Book.author).order(Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(rows.map { $0["id"] as Int64 } == [1, 2, 3, 4, 5, 6])
      #expect(rows.first?.scopes.names == ["author"])
      let twice = try Row.fetchAll(
        db, Book.including(optional: Book.author).including(required: Book.author).order(Column("id")))
      #expect(twice.map { $0["id"] as Int64 } == [1, 2, 3, 4, 5, 6])
      #expect(twice.first?.scopes.names == ["author"])
      // all filters apply
      let filtered =
        try Book
        .including(required: Book.author.filter(Column("countryCode") == "FR"))
        .including(optional: Book.author.filter(Column("name") != "Victor Hugo"))
        .order(Column("id"))
        .asRequest(of: BookWithAuthor.self).fetchAll(db)
      #expect(filtered.map(\.book.id) == [4, 5, 6])
      #expect(filtered.map(\.author.name) == ["Jules Verne", "Jules Verne", "Jules Verne"])
    }
  }

  @Test("nested includes two levels deep decode into a flat record")
  func nestedIncludesFlat() throws {
    struct BookInfo: Decodable, FetchableRecord {
      var book: Book
      var author: Author
      var country: Country?
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book.including(required: Book.author.including(optional: Author.country)).order(Column("id"))
        .asRequest(of: BookInfo.self).fetchAll(db)
    }
    #expect(
      infos.map(\.author.name) == [
        "Victor Hugo", "Victor Hugo", "Herman Melville", "Jules Verne", "Jules Verne", "Jules Verne",
      ])
    #expect(
      infos.map(\.country) == [
        Library.france, Library.france, Library.usa, Library.france, Library.france, Library.france,
      ])
  }

  @Test("nested includes decode into a hierarchical record with keys from its coding keys")
  func nestedIncludesHierarchical() throws {
    struct BookInfo: Decodable, FetchableRecord {
      struct AuthorInfo: Decodable {
        var author: Author
        var country: Country?
      }
      var book: Book
      var authorInfo: AuthorInfo?
      enum CodingKeys: String, CodingKey { case book, authorInfo }
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book
        .including(
          optional: Book.author.forKey(BookInfo.CodingKeys.authorInfo).including(optional: Author.country)
        )
        .order(Column("id"))
        .asRequest(of: BookInfo.self).fetchAll(db)
    }
    #expect(infos.count == 7)
    #expect(infos[2].authorInfo?.author == Library.melville)
    #expect(infos[2].authorInfo?.country == Library.usa)
    #expect(infos[6].authorInfo == nil)
  }

  @Test(
    "a joined intermediate table is not selected; its included association is, in the joined table's scope of no column"
  )
  func joiningThenIncluding() throws {
    struct BookWithCountry: Decodable, FetchableRecord {
      var book: Book
      var country: Country?
    }
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let request = Book.joining(optional: Book.author.including(optional: Author.country)).order(
        Column("id"))
      let rows = try Row.fetchAll(db, request)
      #expect(rows.first?.scopes.names == ["author"])
      #expect(rows.first?.scopes["author"]?.count == 0)
      #expect(rows.first?.scopes["author"]?.scopes.names == ["country"])
      #expect(rows.first?.scopesTree["country"]?["code"] == "FR")
      // A book without an author: the scope of no column holds a scope of
      // NULLs, and the record's optional property decodes as nil.
      #expect(rows.last?.scopes["author"]?.containsNonNullValue == false)
      let infos = try request.asRequest(of: BookWithCountry.self).fetchAll(db)
      #expect(infos.map(\.country?.code) == ["FR", "FR", "US", "FR", "FR", "FR", nil])
    }
  }

  @Test("including(all:) nested inside including(all:) fills every level")
  func prefetchInsidePrefetch() throws {
    struct CountryInfo: Decodable, FetchableRecord {
      var country: Country
      var authors: [AuthorWithBooks]
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Country
        .including(
          all: Country.authors.order(Column("id")).including(all: Author.books.order(Column("id")))
        )
        .order(Column("code"))
        .asRequest(of: CountryInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.country.code) == ["FR", "JP", "US"])
    #expect(
      infos.map { $0.authors.map(\.author.name) } == [
        ["Victor Hugo", "Jules Verne"], [], ["Herman Melville"],
      ])
    #expect(infos.map { $0.authors.map { $0.books.map(\.id) } } == [[[1, 2], [4, 5, 6]], [], [[3]]])
  }

  @Test("including(all:) nested inside including(required:) attaches the rows to the included record")
  func prefetchInsideRequired() throws {
    struct BookInfo: Decodable, FetchableRecord {
      var book: Book
      var authorInfo: AuthorWithBooks
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Book
        .including(
          required: Book.author.forKey("authorInfo").including(all: Author.books.order(Column("id")))
        )
        .filter(Column("id") == 1 || Column("id") == 3)
        .order(Column("id"))
        .asRequest(of: BookInfo.self).fetchAll(db)
    }
    #expect(infos.map(\.book) == [Library.miserables, Library.mobyDick])
    #expect(infos.map(\.authorInfo.author) == [Library.hugo, Library.melville])
    #expect(infos.map { $0.authorInfo.books.map(\.id) } == [[1, 2], [3]])
  }

  @Test("including(all:) of a filtered association under distinct keys fetches distinct populations")
  func prefetchTwiceWithKeys() throws {
    struct AuthorInfo: Decodable, FetchableRecord {
      var author: Author
      var oldBooks: [Book]
      var recentBooks: [Book]
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Author
        .including(all: Author.books.filter(Column("year") < 1860).order(Column("id")).forKey("oldBooks"))
        .including(all: Author.books.filter(Column("year") >= 1860).order(Column("id")).forKey("recentBooks"))
        .order(Column("id"))
        .asRequest(of: AuthorInfo.self).fetchAll(db)
    }
    #expect(infos.map { $0.oldBooks.map(\.id) } == [[2], [3], [], []])
    #expect(infos.map { $0.recentBooks.map(\.id) } == [[1], [], [4, 5, 6], []])
  }
}

// Tables with plural names, to see GRDB's inflected association keys.
private struct Person: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "people"
  var id: Int64
  var name: String
  static let posts = hasMany(Post.self)
}

private struct Post: Codable, FetchableRecord, PersistableRecord, Equatable {
  static let databaseTableName = "posts"
  var id: Int64
  var personId: Int64
  var text: String
  static let person = belongsTo(Person.self)
}

@Suite("Associations: keys, scopes and prefetched rows")
struct AssociationKeyTests {
  @Test("default keys: the table name for to-one associations, its plural for to-many ones")
  func defaultKeys() throws {
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let row = try #require(
        try Row.fetchOne(
          db,
          Book.including(required: Book.author)
            .including(optional: Book.coverImage)
            .including(optional: Book.country)
            .including(all: Book.reviews)
            .including(all: Book.tags)
            .filter(Column("id") == 1)))
      // `Book.country` goes through `Book.author`: its pivot is the author
      // the request includes, and the country is that author's scope.
      #expect(row.scopes.names == ["author", "coverImage"])
      #expect(row.scopes["author"]?.scopes.names == ["country"])
      #expect(Set(row.prefetchedRows.keys) == ["reviews", "tags"])
    }
  }

  @Test("default keys are singular for to-one and plural for to-many, whatever the table name")
  func inflectedKeys() throws {
    struct PostInfo: Decodable, FetchableRecord {
      var post: Post
      var person: Person
    }
    struct PersonInfo: Decodable, FetchableRecord {
      var person: Person
      var posts: [Post]
    }
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
      try db.execute(
        sql: """
          CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
          CREATE TABLE posts (id INTEGER PRIMARY KEY, personId INTEGER NOT NULL REFERENCES people(id), text TEXT);
          """)
      try Person(id: 1, name: "Ann").insert(db)
      try Post(id: 1, personId: 1, text: "hello").insert(db)
      try Post(id: 2, personId: 1, text: "again").insert(db)
    }
    try dbQueue.read { db in
      let row = try #require(try Row.fetchOne(db, Post.including(required: Post.person)))
      #expect(row.scopes.names == ["person"])
      let postInfos = try Post.including(required: Post.person).order(Column("id"))
        .asRequest(of: PostInfo.self).fetchAll(db)
      #expect(postInfos.map(\.person.name) == ["Ann", "Ann"])
      let personInfos = try Person.including(all: Person.posts.order(Column("id")))
        .asRequest(of: PersonInfo.self).fetchAll(db)
      #expect(personInfos.map { $0.posts.map(\.text) } == [["hello", "again"]])
    }
  }

  @Test("a to-many association included as to-one is keyed by the singular name")
  func toManyIncludedAsToOne() throws {
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let rows = try Row.fetchAll(
        db, Author.including(required: Author.books).filter(Column("id") == 2))
      #expect(rows.count == 1)
      #expect(rows.first?.scopes.names == ["book"])
      #expect(rows.first?.scopes["book"]?["title"] == "Moby-Dick")
    }
  }

  @Test("forKey renames the scope and the prefetched rows")
  func forKeyRenames() throws {
    struct BookInfo: Decodable, FetchableRecord {
      var book: Book
      var writer: Author?
    }
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let request = Book.including(optional: Book.author.forKey("writer")).order(Column("id"))
      let row = try #require(try Row.fetchOne(db, request))
      #expect(row.scopes.names == ["writer"])
      #expect(row.scopes["author"] == nil)
      let infos = try request.asRequest(of: BookInfo.self).fetchAll(db)
      #expect(infos.map(\.writer?.id) == [1, 1, 2, 3, 3, 3, nil])

      let authorRow = try #require(
        try Row.fetchOne(db, Author.including(all: Author.books.forKey("works")).filter(Column("id") == 1)))
      #expect(authorRow.prefetchedRows["works"]?.count == 2)
      #expect(authorRow.prefetchedRows["books"] == nil)
    }
  }

  @Test("row.scopes holds the included row's columns, nested scopes included")
  func rowScopes() throws {
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let request = Book.including(required: Book.author.including(optional: Author.country))
        .filter(Column("id") == 3)
      let row = try #require(try Row.fetchOne(db, request))
      #expect(row.columnNames == ["id", "authorId", "title", "year", "price"])
      #expect(row["title"] == "Moby-Dick")
      let author = try #require(row.scopes["author"])
      #expect(author.columnNames == ["id", "name", "countryCode"])
      #expect(author["name"] == "Herman Melville")
      let country = try #require(author.scopes["country"])
      #expect(country["name"] == "United States")
      #expect(try Author(row: author) == Library.melville)
    }
  }

  @Test("an optional scope that matched nothing holds NULLs and decodes as nil")
  func emptyOptionalScope() throws {
    struct AuthorInfo: Decodable, FetchableRecord {
      var author: Author
      var country: Country?
    }
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let request = Author.including(optional: Author.country).filter(Column("id") == 4)
      let row = try #require(try Row.fetchOne(db, request))
      let scope = try #require(row.scopes["country"])
      let allNull = scope.databaseValues.allSatisfy { $0.isNull }
      #expect(allNull)
      let info = try #require(try request.asRequest(of: AuthorInfo.self).fetchOne(db))
      #expect(info.author == Library.nobody)
      #expect(info.country == nil)
    }
  }

  @Test(
    "row.prefetchedRows holds the rows of including(all:), empty for none, each with its key as grdb_<column>, as GRDB's"
  )
  func rowPrefetchedRows() throws {
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let rows = try Row.fetchAll(
        db, Author.including(all: Author.books.order(Column("id"))).order(Column("id")))
      #expect(rows.map { $0.prefetchedRows["books"]?.count } == [2, 1, 3, 0])
      let hugoBooks = try #require(rows.first?.prefetchedRows["books"])
      #expect(hugoBooks.map { $0["title"] as String } == ["Les Misérables", "Notre-Dame de Paris"])
      #expect(hugoBooks.first?.columnNames == ["id", "authorId", "title", "year", "price", "grdb_authorId"])
      #expect(hugoBooks.allSatisfy { $0["grdb_authorId"] as Int64? == $0["authorId"] as Int64? })
      #expect(try hugoBooks.map(Book.init(row:)) == [Library.miserables, Library.notreDame])
    }
  }

  @Test("select on an association decodes partial records")
  func partialAssociatedRecords() throws {
    struct BookInfo: Decodable, FetchableRecord {
      struct PartialAuthor: Decodable, Equatable {
        var name: String
      }
      var book: Book
      var author: PartialAuthor
    }
    let dbQueue = try Library.makeDatabase()
    try dbQueue.read { db in
      let request = Book.including(required: Book.author.select(Column("name"))).filter(Column("id") == 3)
      let row = try #require(try Row.fetchOne(db, request))
      #expect(row.scopes["author"]?.columnNames == ["name"])
      let info = try #require(try request.asRequest(of: BookInfo.self).fetchOne(db))
      #expect(info.book == Library.mobyDick)
      #expect(info.author == BookInfo.PartialAuthor(name: "Herman Melville"))
    }
  }

  @Test("a single selected column of including(all:) decodes as an array of values")
  func prefetchedSingleColumn() throws {
    struct AuthorInfo: Decodable, FetchableRecord {
      var author: Author
      var bookTitles: [String]
    }
    let dbQueue = try Library.makeDatabase()
    let infos = try dbQueue.read { db in
      try Author
        .including(all: Author.books.select(Column("title")).order(Column("title")).forKey("bookTitles"))
        .order(Column("id"))
        .asRequest(of: AuthorInfo.self).fetchAll(db)
    }
    #expect(
      infos.map(\.bookTitles) == [
        ["Les Misérables", "Notre-Dame de Paris"], ["Moby-Dick"],
        ["Around the World", "From the Earth to the Moon", "Twenty Thousand Leagues"], [],
      ])
  }

  @Test("an ordering built into an association is its default, and can be replaced")
  func orderedAssociation() throws {
    let dbQueue = try Library.makeDatabase()
    let byYear = Author.books.order(Column("year"))
    try dbQueue.read { db in
      let defaultOrder = try Row.fetchOne(db, Author.including(all: byYear).filter(Column("id") == 3))
      #expect(defaultOrder?.prefetchedRows["books"]?.map { $0["id"] as Int64 } == [6, 4, 5])
      let replaced = try Row.fetchOne(
        db, Author.including(all: byYear.order(Column("title").desc)).filter(Column("id") == 3))
      #expect(replaced?.prefetchedRows["books"]?.map { $0["id"] as Int64 } == [4, 6, 5])
    }
  }
}

@Suite("Associations: values in association filters are bound")
struct AssociationBindingTests {
  @Test("a value in an association filter is a bound argument, never SQL text")
  func filterValuesAreBound() throws {
    let dbQueue = try Library.makeDatabase()
    let hostile = "x' OR '1'='1"
    try dbQueue.read { db in
      let request = Book.joining(required: Book.author.filter(Column("name") == hostile))
      #expect(try request.fetchAll(db).isEmpty)
      let prepared = try request.makePreparedRequest(db, forSingleResult: false)
      #expect(!prepared.statement.sql.contains("OR '1'='1"))
      #expect(!prepared.statement.sql.contains(hostile))

      let prefetch = Author.including(all: Author.books.filter(Column("title") == hostile))
      let rows = try Row.fetchAll(db, prefetch)
      #expect(rows.allSatisfy { $0.prefetchedRows["books"] == [] })

      let having = Author.having(Author.books.filter(Column("title") == hostile).isEmpty == false)
      #expect(try having.fetchAll(db).isEmpty)
      let havingSQL = try having.makePreparedRequest(db, forSingleResult: false).statement.sql
      #expect(!havingSQL.contains(hostile))
    }
  }

  @Test("a value that looks like SQL is matched literally")
  func hostileValueMatchesLiterally() throws {
    let dbQueue = try Library.makeDatabase()
    let hostile = "Robert'); DROP TABLE book; --"
    try dbQueue.write { db in
      try Author(id: 9, name: hostile, countryCode: nil).insert(db)
      try Book(id: 9, authorId: 9, title: "Little Bobby Tables", year: 2007, price: nil).insert(db)
    }
    let books = try dbQueue.read { db in
      try Book.joining(required: Book.author.filter(Column("name") == hostile)).fetchAll(db)
    }
    #expect(books.map(\.title) == ["Little Bobby Tables"])
    #expect(try dbQueue.read { db in try Book.fetchCount(db) } == 8)
  }

  @Test("an alias name and an association key are quoted identifiers")
  func identifiersAreQuoted() throws {
    let dbQueue = try Library.makeDatabase()
    let authorAlias = TableAlias<Author>(name: "a\"; DROP TABLE book; --")
    let books = try dbQueue.read { db in
      try Book.joining(required: Book.author.aliased(authorAlias))
        .filter(authorAlias[Column("name")] == "Herman Melville")
        .fetchAll(db)
    }
    #expect(books == [Library.mobyDick])
    let rows = try dbQueue.read { db in
      try Row.fetchAll(db, Book.including(required: Book.author.forKey("x\"; DROP TABLE book; --")))
    }
    #expect(rows.count == 6)
    #expect(try dbQueue.read { db in try Book.fetchCount(db) } == 7)
  }
}
