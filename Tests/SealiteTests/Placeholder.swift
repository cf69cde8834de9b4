import Testing

@testable import Sealite
