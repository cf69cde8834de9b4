import CSQLCipher
import Foundation

/// The C function a tokenizer calls with each token it finds: `xToken` of
/// `fts5_tokenizer.xTokenize`. `context` is the one the tokenizer was given;
/// `iStart` and `iEnd` are the byte offsets of the token in the text.
public typealias FTS5TokenCallback =
  @convention(c) (
    _ context: UnsafeMutableRawPointer?,
    _ flags: CInt,
    _ pToken: UnsafePointer<CChar>?,
    _ nToken: CInt,
    _ iStart: CInt,
    _ iEnd: CInt
  ) -> CInt

/// Why a text is tokenized: the `flags` of `fts5_tokenizer.xTokenize`.
public struct FTS5Tokenization: OptionSet, Sendable {
  public let rawValue: CInt

  /// A tokenization of the given flags.
  public init(rawValue: CInt) { self.rawValue = rawValue }

  /// A query is tokenized (`FTS5_TOKENIZE_QUERY`).
  public static let query = FTS5Tokenization(rawValue: FTS5_TOKENIZE_QUERY)
  /// The query term is a prefix (`FTS5_TOKENIZE_PREFIX`, with ``query``).
  public static let prefix = FTS5Tokenization(rawValue: FTS5_TOKENIZE_PREFIX)
  /// A document is inserted, updated or deleted (`FTS5_TOKENIZE_DOCUMENT`).
  public static let document = FTS5Tokenization(rawValue: FTS5_TOKENIZE_DOCUMENT)
  /// An auxiliary function tokenizes a document (`FTS5_TOKENIZE_AUX`).
  public static let aux = FTS5Tokenization(rawValue: FTS5_TOKENIZE_AUX)
}

/// The flags of a token: `tflags` of the token callback.
public struct FTS5TokenFlags: OptionSet, Sendable {
  public let rawValue: CInt

  /// Flags of the given value.
  public init(rawValue: CInt) { self.rawValue = rawValue }

  /// The token is a synonym of the previous one, at the same position
  /// (`FTS5_TOKEN_COLOCATED`).
  public static let colocated = FTS5TokenFlags(rawValue: FTS5_TOKEN_COLOCATED)
}

/// A tokenizer of FTS5: one SQLite provides (``Database/makeTokenizer(_:)``)
/// or one written in Swift (``FTS5CustomTokenizer``, ``FTS5WrapperTokenizer``).
///
/// See <https://www.sqlite.org/fts5.html#custom_tokenizers>.
public protocol FTS5Tokenizer: AnyObject {
  /// Splits a text into tokens, as `fts5_tokenizer.xTokenize` does: calls
  /// `tokenCallback` with `context` for each token of the `nText` UTF-8 bytes at
  /// `pText`, stops at the first result that is not `SQLITE_OK`, and returns it.
  func tokenize(
    context: UnsafeMutableRawPointer?,
    tokenization: FTS5Tokenization,
    pText: UnsafePointer<CChar>?,
    nText: CInt,
    tokenCallback: @escaping FTS5TokenCallback
  ) -> CInt
}

extension FTS5Tokenizer {
  /// The tokens of `string` read as a document, with their flags:
  ///
  ///     let tokenizer = try db.makeTokenizer(.porter())
  ///     try tokenizer.tokenize(document: "Databases") // [("databas", [])]
  public func tokenize(document string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
    try tokens(of: string, for: .document)
  }

  /// The tokens of `string` read as a query, with their flags:
  ///
  ///     let tokenizer = try db.makeTokenizer(.unicode61())
  ///     try tokenizer.tokenize(query: "Édouard Manet") // [("edouard", []), ("manet", [])]
  public func tokenize(query string: String) throws -> [(token: String, flags: FTS5TokenFlags)] {
    try tokens(of: string, for: .query)
  }

  private func tokens(of string: String, for tokenization: FTS5Tokenization) throws
    -> [(token: String, flags: FTS5TokenFlags)]
  {
    var tokens: [(token: String, flags: FTS5TokenFlags)] = []
    var text = string
    let code = text.withUTF8 { bytes in
      withUnsafeMutablePointer(to: &tokens) { tokensPointer in
        bytes.withMemoryRebound(to: CChar.self) { text in
          tokenize(
            context: UnsafeMutableRawPointer(tokensPointer), tokenization: tokenization,
            pText: text.baseAddress, nText: CInt(text.count),
            tokenCallback: { context, flags, pToken, nToken, _, _ in
              guard let context else { return SQLITE_ERROR }
              // A token that is not UTF-8 can not be a String: it is left out.
              guard let token = FTS5TokenText.string(pToken, nToken) else { return SQLITE_OK }
              context.assumingMemoryBound(to: [(token: String, flags: FTS5TokenFlags)].self).pointee
                .append((token, FTS5TokenFlags(rawValue: flags)))
              return SQLITE_OK
            })
        }
      }
    }
    guard code == SQLITE_OK else {
      throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "the tokenizer failed")
    }
    return tokens
  }
}

/// The bytes of a token as a String.
enum FTS5TokenText {
  /// The token of `count` bytes at `bytes`, or nil if it is not UTF-8.
  static func string(_ bytes: UnsafePointer<CChar>?, _ count: CInt) -> String? {
    guard count > 0, let bytes else { return count == 0 ? "" : nil }
    return String(validating: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
  }

  /// Calls `body` with the UTF-8 bytes of `token`, as the token callback takes them.
  static func withBytes<T>(of token: String, _ body: (UnsafePointer<CChar>?, CInt) -> T) -> T {
    var token = token
    return token.withUTF8 { bytes in
      bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress, CInt($0.count)) }
    }
  }
}
