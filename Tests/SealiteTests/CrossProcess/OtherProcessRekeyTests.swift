import Foundation
import Sealite
import Testing

@Suite("Observing other processes when they change the key")
struct OtherProcessRekeyTests {
  @Test(
    "an observation of other processes' commits ends with an error once another connection changed the key",
    arguments: WriterKind.allCases)
  func rekeyEndsObservation(kind: WriterKind) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path()
    let setup = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try await setup.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
    try setup.close()
    let observed = try kind.open(path, watchingConfiguration())
    let changes = Locked(0)
    let errors = Locked<[any Error]>([])
    let cancellable = DatabaseRegionObservation(tracking: DatabaseRegion.fullDatabase).start(
      in: observed, onError: { error in errors.withLock { $0.append(error) } },
      onChange: { _ in changes.withLock { $0 += 1 } })
    defer { cancellable.cancel() }
    // The control: a commit of the other connection is seen as a change.
    let other = try DatabaseQueue(path: path, configuration: rawKeyConfiguration())
    try await other.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
    #expect(await eventually { changes.value >= 1 })
    #expect(errors.value.isEmpty)
    // The other connection changes the key: the observer can no longer read,
    // and says so, rather than go blind to every later commit.
    try other.changeKey(to: .randomRaw())
    try other.close()
    #expect(await eventually(timeout: 30) { !errors.value.isEmpty }, "no error after the key changed")
    #expect(errors.value.count == 1)
    #expect((errors.value.first as? DatabaseError)?.resultCode == .SQLITE_NOTADB, "\(errors.value)")
    try observed.close()
  }
}
