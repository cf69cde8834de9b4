// Schema reads its pragma rows with these initializers; the conformances
// live here, with FetchableRecord, because Schema is the lower layer.

extension ColumnInfo: FetchableRecord {}

extension ForeignKeyViolation: FetchableRecord {}
