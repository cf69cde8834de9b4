import Foundation

/// Bridging to `NSError`, as GRDB has it: Foundation code that logs or
/// presents errors reads the description and SQLite's message.
///
///     // databaseError: a unique constraint failure thrown by Sealite
///     (databaseError as NSError).domain  // "GRDB.DatabaseError"
///     (databaseError as NSError).code    // the extended result code, e.g. 2067
extension DatabaseError: CustomNSError {
  /// `GRDB.DatabaseError`: GRDB's domain, so that code written for GRDB that
  /// tells errors apart by domain keeps working.
  public static var errorDomain: String { "GRDB.DatabaseError" }

  /// The extended result code.
  public var errorCode: Int { Int(extendedResultCode.rawValue) }

  /// The ``description`` (`NSLocalizedDescriptionKey`), and SQLite's
  /// ``message`` (`NSLocalizedFailureReasonErrorKey`) when there is one.
  /// Arguments appear only as ``description`` prints them.
  public var errorUserInfo: [String: Any] {
    var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
    if let message { userInfo[NSLocalizedFailureReasonErrorKey] = message }
    return userInfo
  }
}
