// The helpers that GRDB's test files expect from their base class (GRDBTestCase), written
// for Sealite: a GRDB test file type-checks against Sealite with this file beside it.
// Used by scripts/grdb-typecheck/run only; not part of any target.
import CSQLCipher
import Foundation
import Sealite
import XCTest

struct SQLiteDiagnostic {
  var resultCode: ResultCode
  var message: String
}
nonisolated(unsafe) private let diagnosticBox = Mutex<SQLiteDiagnostic?>(nil)
var lastSQLiteDiagnostic: SQLiteDiagnostic? { diagnosticBox.withLock { $0 } }
let logErrorSetup: Void = {
  Database.logError = { code, message in diagnosticBox.withLock { $0 = SQLiteDiagnostic(resultCode: code, message: message) } }
}()

final class QueryLog: @unchecked Sendable {
  // @unchecked Sendable: `queries` is GRDB's test Mutex, a class that reads and
  // writes its value under its NSLock only.
  let queries = Mutex<[String]>([])
}

class GRDBTestCase: XCTestCase {
  var dbConfiguration: Configuration!
  private var directory: String!
  let queryLog = QueryLog()

  var sqlQueries: [String] { queryLog.queries.withLock { $0 } }
  var lastSQLQuery: String? { sqlQueries.last { !$0.hasPrefix("--") } }

  override func setUp() {
    super.setUp()
    _ = logErrorSetup
    directory = NSTemporaryDirectory() + "/GRDBCheck-" + UUID().uuidString
    dbConfiguration = Configuration()
    dbConfiguration.prepareDatabase { [queryLog] db in
      db.trace { event in queryLog.queries.withLock { $0.append(event.expandedDescription) } }
    }
    clearSQLQueries()
  }

  override func tearDown() {
    super.tearDown()
    try? FileManager.default.removeItem(atPath: directory)
  }

  func makeDatabaseQueue(filename: String? = nil) throws -> DatabaseQueue {
    try makeDatabaseQueue(filename: filename, configuration: dbConfiguration)
  }
  func makeDatabaseQueue(filename: String? = nil, configuration: Configuration) throws -> DatabaseQueue {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let q = try DatabaseQueue(path: directory + "/" + (filename ?? UUID().uuidString), configuration: configuration)
    try setup(q)
    return q
  }
  func makeDatabasePool(filename: String? = nil) throws -> DatabasePool {
    try makeDatabasePool(filename: filename, configuration: dbConfiguration)
  }
  func makeDatabasePool(filename: String? = nil, configuration: Configuration) throws -> DatabasePool {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let p = try DatabasePool(path: directory + "/" + (filename ?? UUID().uuidString), configuration: configuration)
    try setup(p)
    return p
  }
  func setup(_ dbWriter: some DatabaseWriter) throws {}
  func clearSQLQueries() { queryLog.queries.withLock { $0 = [] } }
  func assertNoError(file: StaticString = #file, line: UInt = #line, _ test: () throws -> Void) {
    do { try test() } catch { XCTFail("unexpected error: \(error)", file: file, line: line) }
  }
  func assertDidExecute(sql: String, file: StaticString = #file, line: UInt = #line) {
    XCTAssertTrue(sqlQueries.contains(sql), "Did not execute \(sql)", file: file, line: line)
  }
  func assert(_ record: some EncodableRecord, isEncodedIn row: Row, file: StaticString = #file, line: UInt = #line) throws {
    let recordDict = try record.databaseDictionary
    let rowDict = Dictionary(row, uniquingKeysWith: { (left, _) in left })
    XCTAssertEqual(recordDict, rowDict, file: file, line: line)
  }
  func assertEqualSQL(_ lhs: String, _ rhs: String, file: StaticString = #file, line: UInt = #line) {
    let cs = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";"))
    XCTAssertEqual(lhs.trimmingCharacters(in: cs), rhs.trimmingCharacters(in: cs), file: file, line: line)
  }
  func assertEqualSQL(_ db: Database, _ request: some FetchRequest, _ sql: String, file: StaticString = #file, line: UInt = #line) throws {
    _ = try Row.fetchCursor(request.makeStatement(db)).next()
    assertEqualSQL(lastSQLQuery!, sql, file: file, line: line)
  }
  func assertEqualSQL(_ db: Database, _ expression: some SQLExpressible, _ sql: String, file: StaticString = #file, line: UInt = #line) throws {
    let request: SQLRequest<Row> = "SELECT \(expression.sqlExpression)"
    try assertEqualSQL(db, request, "SELECT \(sql)", file: file, line: line)
  }
  func assertEqualSQL(_ reader: some DatabaseReader, _ request: some FetchRequest, _ sql: String, file: StaticString = #file, line: UInt = #line) throws {
    try reader.unsafeRead { db in try assertEqualSQL(db, request, sql, file: file, line: line) }
  }
  func sql(_ reader: some DatabaseReader, _ request: some FetchRequest) -> String {
    try! reader.unsafeRead { db in
      _ = try Row.fetchCursor(request.makeStatement(db)).next()
      return lastSQLQuery!
    }
  }
}

let testBundle = Bundle.main

extension FetchRequest {
  func makeStatement(_ db: Database) throws -> Statement {
    try makePreparedRequest(db, forSingleResult: false).statement
  }
  func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
    let statement = try makePreparedRequest(db, forSingleResult: false).statement
    return (sql: statement.sql, arguments: statement.arguments)
  }
}
