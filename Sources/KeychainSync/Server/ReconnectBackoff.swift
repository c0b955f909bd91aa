/// The waits between attempts to reconnect: exponential from ``initial``, capped at
/// ``maximum``, each drawn at random between half and all of its nominal length, so that
/// many agents cut off by one server restart do not all come back in the same instant.
struct ReconnectBackoff: Sendable {
    static let initial: Duration = .milliseconds(100)
    static let maximum: Duration = .seconds(30)

    private var nominal = ReconnectBackoff.initial

    /// The wait before the next attempt; each call doubles the next one, up to the cap.
    mutating func next() -> Duration {
        let current = nominal
        nominal = min(nominal * 2, Self.maximum)
        return current * Double.random(in: 0.5...1)
    }

    /// After a success: the next failure waits ``initial`` again.
    mutating func reset() {
        nominal = Self.initial
    }
}
