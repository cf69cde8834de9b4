/// An FTS5 tokenizer written in Swift. Register it on each connection with
/// ``Database/add(tokenizer:)`` (for a pool, in ``Configuration/prepareDatabase(_:)``),
/// then name it in a table definition:
///
///     final class MyTokenizer: FTS5CustomTokenizer {
///       static let name = "my_tokenizer"
///       init(db: Database, arguments: [String]) throws { … }
///       func tokenize(context:tokenization:pText:nText:tokenCallback:) -> CInt { … }
///     }
///
///     try db.create(virtualTable: "document", using: FTS5()) { t in
///       t.tokenizer = MyTokenizer.tokenizerDescriptor()
///       t.column("content")
///     }
///
/// SQLite makes an instance for each table that uses it (and for each
/// ``Database/makeTokenizer(_:)``), and releases it when it deletes the tokenizer.
public protocol FTS5CustomTokenizer: FTS5Tokenizer {
  /// The name of the tokenizer, as the `tokenize` option of a table names it.
  static var name: String { get }

  /// Makes a tokenizer for the connection `db`, with the arguments that follow
  /// the name in the `tokenize` option. A tokenizer should not keep `db`
  /// (it may outlive the access it is made in).
  init(db: Database, arguments: [String]) throws
}

extension FTS5CustomTokenizer {
  /// A descriptor of the tokenizer with `arguments`, for the `tokenizer` of a
  /// table definition.
  public static func tokenizerDescriptor(arguments: [String] = []) -> FTS5TokenizerDescriptor {
    FTS5TokenizerDescriptor(components: [name] + arguments)
  }
}
