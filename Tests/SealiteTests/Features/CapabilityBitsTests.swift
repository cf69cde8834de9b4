import Foundation
import Testing

// @testable: SQLiteFeatures' memberwise initializer, to build features with
// any set of capabilities, is internal.
@testable import Sealite

@Suite("The feature probe's capability bits")
struct CapabilityBitsTests {
  @Test("supports(_:) answers as the capabilities set does, for each capability alone and all but one")
  func supportsAgreesWithCapabilities() {
    let all = Set(SQLiteFeatures.Capability.allCases)
    let linked = SQLiteFeatures.linked
    var sets = all.map { Set([$0]) } + all.map { all.subtracting([$0]) }
    sets += [[], all, linked.capabilities]
    for capabilities in sets {
      let features = SQLiteFeatures(
        sqliteVersion: linked.sqliteVersion, sqliteVersionNumber: linked.sqliteVersionNumber,
        sqliteSourceID: linked.sqliteSourceID, sqlcipherVersion: linked.sqlcipherVersion,
        cryptoProvider: linked.cryptoProvider, cryptoProviderVersion: linked.cryptoProviderVersion,
        compileOptions: linked.compileOptions, capabilities: capabilities)
      for capability in SQLiteFeatures.Capability.allCases {
        #expect(
          features.supports(capability) == capabilities.contains(capability),
          "\(capability) in \(capabilities.map(\.rawValue).sorted())")
      }
    }
  }

  @Test("each capability has a bit of its own")
  func distinctBits() {
    let bits = SQLiteFeatures.Capability.allCases.map(\.bit)
    #expect(bits.allSatisfy { $0 != 0 && $0 & ($0 - 1) == 0 })
    #expect(Set(bits).count == SQLiteFeatures.Capability.allCases.count)
  }
}
