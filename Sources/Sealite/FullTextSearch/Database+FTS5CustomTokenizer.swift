import CSQLCipher

// How a custom tokenizer reaches SQLite. Its registration hands fts5 a retained
// box, released by fts5's destroy callback when the tokenizer is replaced or
// the connection closes; the box holds the connection weakly, so that the
// connection and its tokenizers never keep each other alive. Each instance fts5
// creates is a retained box too, released by xDelete. The C callbacks capture
// nothing: they find their box through the pointers fts5 gives back.

extension Database {
  /// Registers a custom tokenizer on this connection, under its
  /// ``FTS5CustomTokenizer/name``. Tokenizers belong to a connection: register
  /// them on every connection of a pool with ``Configuration/prepareDatabase(_:)``:
  ///
  ///     var config = Configuration()
  ///     config.prepareDatabase { db in
  ///       db.add(tokenizer: MyTokenizer.self)
  ///     }
  ///
  /// Where the linked SQLite has no FTS5 it does nothing (GRDB's method does not
  /// throw): the tables and tokenizers that would use it throw
  /// ``SQLiteFeatureError`` instead.
  public func add(tokenizer: (some FTS5CustomTokenizer).Type) {
    guard features.supports(.fts5) else { return }
    let api: UnsafePointer<fts5_api>
    do {
      api = try fts5API()
    } catch {
      preconditionFailure("FTS5 did not hand out its API: \(error)")
    }
    let registration = FTS5TokenizerRegistration(db: self) { db, arguments in
      try tokenizer.init(db: db, arguments: arguments)
    }
    var methods = fts5_tokenizer(
      xCreate: FTS5TokenizerRegistration.create,
      xDelete: FTS5TokenizerRegistration.delete,
      xTokenize: FTS5TokenizerRegistration.tokenize)
    // fts5 copies the methods, and calls destroy itself if the registration fails.
    let code = api.pointee.xCreateTokenizer!(
      UnsafeMutablePointer(mutating: api), tokenizer.name, Unmanaged.passRetained(registration).toOpaque(),
      &methods, FTS5TokenizerRegistration.destroy)
    guard code == SQLITE_OK else {
      preconditionFailure("FTS5 refused the tokenizer \(tokenizer.name): SQLite error \(code)")
    }
  }
}

/// What fts5 keeps for a registered custom tokenizer.
private final class FTS5TokenizerRegistration {
  /// Weak: the connection owns fts5, which owns the registration.
  weak var db: Database?
  let make: (Database, [String]) throws -> any FTS5Tokenizer

  init(db: Database, make: @escaping (Database, [String]) throws -> any FTS5Tokenizer) {
    self.db = db
    self.make = make
  }

  /// What fts5 keeps for one instance of the tokenizer.
  final class Instance {
    let tokenizer: any FTS5Tokenizer
    init(_ tokenizer: any FTS5Tokenizer) { self.tokenizer = tokenizer }
  }

  static let create:
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, CInt,
      UnsafeMutablePointer<OpaquePointer?>?
    ) -> CInt = { userData, argv, argc, instanceHandle in
      guard let userData, let instanceHandle else { return SQLITE_ERROR }
      let registration = Unmanaged<FTS5TokenizerRegistration>.fromOpaque(userData).takeUnretainedValue()
      guard let db = registration.db else { return SQLITE_ERROR }
      var arguments: [String] = []
      if let argv {
        for index in 0..<Int(argc) {
          if let argument = argv[index] { arguments.append(String(cString: argument)) }
        }
      }
      do {
        let instance = Instance(try registration.make(db, arguments))
        instanceHandle.pointee = OpaquePointer(Unmanaged.passRetained(instance).toOpaque())
        return SQLITE_OK
      } catch let error as DatabaseError {
        return error.extendedResultCode.rawValue
      } catch {
        return SQLITE_ERROR
      }
    }

  static let delete: @convention(c) (OpaquePointer?) -> Void = { instance in
    guard let instance else { return }
    Unmanaged<Instance>.fromOpaque(UnsafeMutableRawPointer(instance)).release()
  }

  static let tokenize:
    @convention(c) (
      OpaquePointer?, UnsafeMutableRawPointer?, CInt, UnsafePointer<CChar>?, CInt,
      FTS5TokenCallback?
    ) -> CInt = { instance, context, flags, pText, nText, tokenCallback in
      guard let instance, let tokenCallback else { return SQLITE_ERROR }
      let tokenizer = Unmanaged<Instance>.fromOpaque(UnsafeMutableRawPointer(instance))
        .takeUnretainedValue().tokenizer
      return tokenizer.tokenize(
        context: context, tokenization: FTS5Tokenization(rawValue: flags), pText: pText, nText: nText,
        tokenCallback: tokenCallback)
    }

  static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { userData in
    guard let userData else { return }
    Unmanaged<FTS5TokenizerRegistration>.fromOpaque(userData).release()
  }
}
