import Foundation
import Sealite
import Testing

@Suite("Reliability: processes killed at random moments")
struct CrashSafetyTests {
  @Test(
    "SIGKILL a writer: every commit that returned is there, no other, and both integrity checks pass",
    arguments: ["pool", "queue"])
  func killWriter(mode: String) async throws {
    // SEALITE_CRASH_KILLS=50 runs the long version.
    let kills = stressCount("SEALITE_CRASH_KILLS", short: 4)
    var generator = StressGenerator()
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    var lastReturned = 0
    for kill in 0..<kills {
      let writer = try SpawnedProcess(
        sealiteStressPath, ["crash-write", path] + (mode == "queue" ? ["--queue"] : []), input: "")
      let ready = await writer.waitForLine(startingWith: "ready ")
      let start = try #require(ready.flatMap { Int($0.dropFirst("ready ".count)) }, "\(writer.errorOutput)")
      // What the last run found committed is still there, after its crash.
      #expect(start >= lastReturned, "seed \(generator.seed), kill \(kill)")
      // Kill during a later commit: after a random number of commits, and a random
      // delay that lands anywhere in a commit (a commit takes about a millisecond).
      let target = start + 1 + generator.next(below: 40)
      writer.kill(afterLine: "committed \(target)", delay: .microseconds(generator.next(below: 3000)))
      _ = await writer.waitForExit()
      #expect(writer.output.contains("committed \(target)"), "\(writer.errorOutput)")
      lastReturned =
        writer.output.compactMap { line in
          line.hasPrefix("committed ") ? Int(line.dropFirst("committed ".count)) : nil
        }.max() ?? start

      if mode == "queue" && kill % 2 == 0 {
        // Read-only commands can not roll back a hot journal: they say so, and
        // recover does it.
        let verify = try await dbkey(["verify", path])
        if verify.status != 0 {
          #expect(verify.status == 65, "\(verify.stderr)")
          #expect(verify.stderr.contains("interrupted by a crash"), "\(verify.stderr)")
        }
        let recover = try await dbkey(["recover", path])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(try await dbkey(["verify", path]).status == 0)
      }
      let check = try await stressCheck(path)
      let context = "seed \(generator.seed), kill \(kill): \(check)"
      #expect(check["integrity"] == "ok", "\(context)")
      #expect(check["cipher"] == "ok" || check["cipher"] == "unsupported", "\(context)")
      let max = try #require(check["max"].flatMap(Int.init), "\(context)")
      // Every commit that returned is there; at most the one in flight besides.
      #expect(max == lastReturned || max == lastReturned + 1, "\(context)")
      #expect(check["gaps"] == "0", "\(context)")
      // Each transaction is whole: the head row moved with the log row.
      #expect(check["head"] == String(max), "\(context)")
      lastReturned = max
    }
    if ProcessInfo.processInfo.environment["SEALITE_CRASH_KILLS"] != nil {
      print("\(mode) writer kills: \(kills), seed \(generator.seed), last commit \(lastReturned)")
    }
  }

  @Test("SIGKILL dbkey rekey: recover, or any open through the keyring, finds the key, every row intact")
  func killRekey() async throws {
    // SEALITE_REKEY_KILLS=50 runs the long version.
    let kills = stressCount("SEALITE_REKEY_KILLS", short: 4)
    var generator = StressGenerator()
    let directory = TemporaryDirectory()
    let path = directory.path()
    #expect(try await dbkey(["init", path]).status == 0)
    // A few megabytes of rows, so that a rekey takes long enough to be cut.
    let filler = try SpawnedProcess(sealiteStressPath, ["crash-write", path], input: "")
    filler.kill(afterLine: "committed 1500", delay: .seconds(0))
    _ = await filler.waitForExit()
    #expect(filler.output.contains("committed 1500"), "\(filler.errorOutput)")
    let before = try await stressCheck(path)
    let checksum = try #require(before["checksum"])

    // How long an uninterrupted rekey takes here, to spread the kills over it.
    let started = ContinuousClock.now
    let first = try await dbkey(["rekey", path])
    #expect(first.status == 0, "\(first.stderr)")
    let duration = ContinuousClock.now - started
    let microseconds =
      Int(duration.components.seconds) * 1_000_000
      + Int(duration.components.attoseconds / 1_000_000_000_000)

    var outcomes: [String: Int] = [:]
    for kill in 0..<kills {
      let rekey = try SpawnedProcess(dbkeyPath, ["rekey", path], input: "")
      let delay = generator.next(below: max(microseconds, 1000))
      // Timed by Dispatch, not by the test's task, which may wait for a thread.
      DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(delay)) { rekey.kill() }
      _ = await rekey.waitForExit()
      let context = "seed \(generator.seed), kill \(kill)"
      let finished = rekey.output.contains { $0.hasPrefix("rekeyed") }
      if kill % 2 == 0 {
        let recovered = try await dbkey(["recover", path])
        #expect(recovered.status == 0, "\(context): \(recovered.stderr)")
        let outcome =
          finished
          ? "finished" : recovered.stdout.split(separator: "\n").map(String.init).joined(separator: " + ")
        outcomes[outcome, default: 0] += 1
      } else {
        outcomes[finished ? "finished" : "opened through the keyring", default: 0] += 1
      }
      // sealite-stress opens through the keyring (Configuration.useKeyFromKeyring).
      let after = try await stressCheck(path)
      #expect(after["checksum"] == checksum, "\(context): \(after)")
      #expect(after["integrity"] == "ok", "\(context): \(after)")
      #expect(try await items(in: directory) == ["db.sqlite|"], "\(context)")
    }
    if ProcessInfo.processInfo.environment["SEALITE_REKEY_KILLS"] != nil {
      print("rekey kills: \(kills), seed \(generator.seed), rekey \(microseconds) µs, outcomes \(outcomes)")
    }
  }
}
