/// As many `?` placeholders as `count`, separated by commas, for SQL built
/// by hand.
///
///     databaseQuestionMarks(count: 3)  // "?,?,?"
///     let sql = "SELECT * FROM player WHERE id IN (\(databaseQuestionMarks(count: ids.count)))"
public func databaseQuestionMarks(count: Int) -> String {
  repeatElement("?", count: count).joined(separator: ",")
}

/// `SendableMetatype`, under GRDB's name for it: generic constraints written
/// for GRDB (`T: FetchableRecord & GRDBSendableMetatype`) compile unchanged.
public typealias GRDBSendableMetatype = SendableMetatype
