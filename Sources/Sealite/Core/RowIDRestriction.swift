/// The only rows of one table a run of a statement can select, when the query
/// interface knows them (a filter on the rowid: `filter(key: 1)`,
/// `filter(Column("id") == 1)`): observations of that run then ignore the
/// changes of other rows.
///
/// It describes one run, not the statement: a cached statement runs again
/// with other arguments. The prepared request that knows it hands it to the
/// cursor that runs the statement, which hands it to the execution observer.
struct RowIDRestriction: Sendable, Equatable {
  let table: String
  let rowIDs: Set<Int64>
}
