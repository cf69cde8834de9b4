import CSQLCipher
import Foundation

extension Database {
  /// A tokenizer registered on this connection: a built-in one (`ascii`,
  /// `porter`, `unicode61`, `trigram`) or one added with ``add(tokenizer:)``.
  ///
  ///     let unicode61 = try db.makeTokenizer(.unicode61())
  ///     try unicode61.tokenize(query: "Jérôme") // [("jerome", [])]
  ///
  /// Custom tokenizers use it to wrap another one. Throws ``SQLiteFeatureError``
  /// where the linked SQLite lacks FTS5 or the tokenizer, and ``DatabaseError``
  /// if no tokenizer has the name or its arguments are refused.
  public func makeTokenizer(_ descriptor: FTS5TokenizerDescriptor) throws -> any FTS5Tokenizer {
    try descriptor.requireSupport(features)
    let api = try fts5API()
    guard let findTokenizer = api.pointee.xFindTokenizer else {
      throw DatabaseError(message: "FTS5 can not find tokenizers")
    }
    var userData: UnsafeMutableRawPointer?
    var methods = fts5_tokenizer()
    let code = findTokenizer(UnsafeMutablePointer(mutating: api), descriptor.name, &userData, &methods)
    guard code == SQLITE_OK else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code), message: "no such FTS5 tokenizer: \(descriptor.name)")
    }
    return try FTS5RegisteredTokenizer(methods: methods, userData: userData, arguments: descriptor.arguments)
  }
}

/// An instance of a tokenizer registered on a connection, made with its
/// `xCreate` and deleted with its `xDelete` when released.
private final class FTS5RegisteredTokenizer: FTS5Tokenizer {
  private let methods: fts5_tokenizer
  private let instance: OpaquePointer

  init(methods: fts5_tokenizer, userData: UnsafeMutableRawPointer?, arguments: [String]) throws {
    guard let create = methods.xCreate, methods.xTokenize != nil else {
      throw DatabaseError(message: "the FTS5 tokenizer has no xCreate or xTokenize function")
    }
    var instance: OpaquePointer?
    // The C strings live until xCreate returns; tokenizers copy what they keep.
    let cStrings = arguments.map { strdup($0) }
    defer { for cString in cStrings { free(cString) } }
    var argv = cStrings.map { UnsafePointer<CChar>($0) }
    let code = argv.withUnsafeMutableBufferPointer { argv in
      create(userData, argv.baseAddress, CInt(argv.count), &instance)
    }
    guard code == SQLITE_OK, let instance else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code == SQLITE_OK ? SQLITE_ERROR : code),
        message: "the FTS5 tokenizer refused its arguments")
    }
    self.methods = methods
    self.instance = instance
  }

  deinit {
    methods.xDelete?(instance)
  }

  func tokenize(
    context: UnsafeMutableRawPointer?, tokenization: FTS5Tokenization, pText: UnsafePointer<CChar>?,
    nText: CInt, tokenCallback: @escaping FTS5TokenCallback
  ) -> CInt {
    methods.xTokenize!(instance, context, tokenization.rawValue, pText, nText, tokenCallback)
  }
}
