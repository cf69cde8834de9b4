import Foundation
import Sealite

let dir = FileManager.default.temporaryDirectory.appendingPathComponent("smoke-\(getpid())")
try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
let path = dir.appendingPathComponent("db.sqlite").path
var config = Configuration()
config.key = .passphrase("secret")
let q = try DatabaseQueue(path: path, configuration: config)
try q.write { db in
  db.trace { print("TRACE", $0) }
  try db.execute(
    sql:
      "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t(name) VALUES (?); INSERT INTO t(name) VALUES (:n)",
    arguments: ["a"] + ["n": "b"])
}
print(try q.read { db in try Row.fetchAll(db, sql: "SELECT * FROM t") })
try q.close()
var bad = Configuration()
bad.key = .passphrase("wrong")
do { _ = try DatabaseQueue(path: path, configuration: bad) } catch { print("wrong key:", error) }
do { _ = try DatabaseQueue(path: path) } catch { print("no key:", error) }
let pool = try DatabasePool(path: path, configuration: config)
print(try pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM t") })
try pool.changePassphrase("new")
print(try pool.read { db in try String.fetchAll(db, sql: "SELECT name FROM t") })
try pool.close()
var newc = Configuration()
newc.key = .passphrase("new")
print(
  try DatabaseQueue(path: path, configuration: newc).read { db in
    try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
  } as Any)
let f = SQLiteFeatures.linked
print(
  f.sqliteVersion, f.sqlcipherVersion as Any, f.cryptoProvider as Any, f.capabilities.map(\.rawValue).sorted()
)
