import MapSimTrace

/// What running a scenario gave: its trace and the expectations that did not hold.
public struct ScenarioResult: Sendable {
    /// The scenario.
    public var scenario: Scenario
    /// The recorded, redacted trace.
    public var trace: Trace
    /// Expectations and steps that failed, as sentences.
    public var failures: [String]
}
