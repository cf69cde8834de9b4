import Sealite

/// `.immediate`, as any scheduler. As in GRDB, the literal `.immediate`
/// selects the main-actor `start(in:scheduling:onError:onChange:)`; tests
/// that start an immediate observation off the main actor (which Sealite
/// allows) pass this value, which selects the other `start`.
let anyImmediate: any ValueObservationScheduler = .immediate
