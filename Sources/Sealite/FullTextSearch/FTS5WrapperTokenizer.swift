import CSQLCipher

/// The function an ``FTS5WrapperTokenizer`` calls with each token it emits.
public typealias FTS5WrapperTokenCallback = (_ token: String, _ flags: FTS5TokenFlags) throws -> Void

/// A custom tokenizer that works on the tokens of another one: it may change
/// them, drop them, or add synonyms.
///
///     final class FoldingTokenizer: FTS5WrapperTokenizer {
///       static let name = "folding"
///       let wrappedTokenizer: any FTS5Tokenizer
///
///       init(db: Database, arguments: [String]) throws {
///         wrappedTokenizer = try db.makeTokenizer(.unicode61(diacritics: .keep))
///       }
///
///       func accept(
///         token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization,
///         tokenCallback: FTS5WrapperTokenCallback
///       ) throws {
///         try tokenCallback(token.folding(options: [.diacriticInsensitive], locale: nil), flags)
///       }
///     }
public protocol FTS5WrapperTokenizer: FTS5CustomTokenizer {
  /// The tokenizer whose tokens ``accept(token:flags:for:tokenCallback:)`` receives.
  var wrappedTokenizer: any FTS5Tokenizer { get }

  /// Receives a token of the wrapped tokenizer, and emits the tokens that
  /// replace it, any number of them, with `tokenCallback`. A synonym is emitted
  /// with the ``FTS5TokenFlags/colocated`` flag, after the token it stands with
  /// (only when tokenizing documents, as SQLite advises). An error stops the
  /// tokenization, and the statement that needed it fails.
  func accept(
    token: String,
    flags: FTS5TokenFlags,
    for tokenization: FTS5Tokenization,
    tokenCallback: FTS5WrapperTokenCallback
  ) throws
}

extension FTS5WrapperTokenizer {
  /// Tokenizes with ``wrappedTokenizer``, and hands each of its tokens to
  /// ``accept(token:flags:for:tokenCallback:)``.
  public func tokenize(
    context: UnsafeMutableRawPointer?,
    tokenization: FTS5Tokenization,
    pText: UnsafePointer<CChar>?,
    nText: CInt,
    tokenCallback: @escaping FTS5TokenCallback
  ) -> CInt {
    var wrapping = FTS5Wrapping(
      wrapper: self, context: context, tokenization: tokenization, tokenCallback: tokenCallback)
    return withUnsafeMutablePointer(to: &wrapping) { wrappingPointer in
      wrappedTokenizer.tokenize(
        context: UnsafeMutableRawPointer(wrappingPointer), tokenization: tokenization, pText: pText,
        nText: nText,
        tokenCallback: { wrappingPointer, flags, pToken, nToken, iStart, iEnd in
          guard let wrappingPointer else { return SQLITE_ERROR }
          let wrapping = wrappingPointer.assumingMemoryBound(to: FTS5Wrapping.self).pointee
          return wrapping.accept(pToken, nToken, flags: flags, iStart: iStart, iEnd: iEnd)
        })
    }
  }
}

/// One tokenization by a wrapper: what the C callback of the wrapped tokenizer
/// needs to reach the wrapper and SQLite's own callback.
private struct FTS5Wrapping {
  let wrapper: any FTS5WrapperTokenizer
  let context: UnsafeMutableRawPointer?
  let tokenization: FTS5Tokenization
  let tokenCallback: FTS5TokenCallback

  /// Hands a token of the wrapped tokenizer to the wrapper; the tokens it emits
  /// keep the offsets of the token they come from.
  func accept(_ pToken: UnsafePointer<CChar>?, _ nToken: CInt, flags: CInt, iStart: CInt, iEnd: CInt)
    -> CInt
  {
    // A token that is not UTF-8 can not be a String: it is left out.
    guard let token = FTS5TokenText.string(pToken, nToken) else { return SQLITE_OK }
    do {
      try wrapper.accept(token: token, flags: FTS5TokenFlags(rawValue: flags), for: tokenization) {
        token, flags in
        let code = FTS5TokenText.withBytes(of: token) { bytes, count in
          tokenCallback(context, flags.rawValue, bytes, count, iStart, iEnd)
        }
        guard code == SQLITE_OK else {
          throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "the token callback failed")
        }
      }
      return SQLITE_OK
    } catch let error as DatabaseError {
      return error.extendedResultCode.rawValue
    } catch {
      return SQLITE_ERROR
    }
  }
}
