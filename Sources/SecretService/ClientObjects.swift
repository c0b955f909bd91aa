/// Numbered objects that each belong to the client (unique bus name) whose call made them,
/// within a limit overall and per client: the open sessions and the pending prompts. Only
/// the owner may use one; they go when it leaves the bus. Numbers are never reused.
struct ClientObjects<Value> {
    private(set) var values: [UInt64: (owner: String, value: Value)] = [:]
    private var nextNumber: UInt64 = 1
    /// How many there may be, and how many per client.
    let limit: Int
    let limitPerClient: Int
    /// What they are, for the limits' messages: "open sessions", "pending prompts".
    let noun: String
    /// What the client should do about a limit: "close some first".
    let remedy: String

    init(limit: Int, limitPerClient: Int, noun: String, remedy: String) {
        (self.limit, self.limitPerClient, self.noun, self.remedy) = (limit, limitPerClient, noun, remedy)
    }

    /// Adds `value` for `owner`; its number.
    mutating func add(_ value: Value, for owner: String) throws(BusFailure) -> UInt64 {
        guard values.count < limit else {
            throw .failed("too many \(noun) (\(limit)); \(remedy)")
        }
        guard values.values.count(where: { $0.owner == owner }) < limitPerClient else {
            throw .failed("this client has \(limitPerClient) \(noun); \(remedy)")
        }
        let number = nextNumber
        nextNumber += 1
        values[number] = (owner, value)
        return number
    }

    /// The value `number`, when `client` owns it.
    func value(_ number: UInt64, of client: String) -> Value? {
        guard let entry = values[number], entry.owner == client else { return nil }
        return entry.value
    }

    /// Changes the value `number` in place.
    mutating func update(_ number: UInt64, _ change: (inout Value) -> Void) {
        guard var entry = values[number] else { return }
        change(&entry.value)
        values[number] = entry
    }

    /// Removes `number`; its value, or nil when it was gone already.
    mutating func remove(_ number: UInt64) -> Value? {
        values.removeValue(forKey: number)?.value
    }

    /// Removes every value of a client that left the bus; them.
    mutating func removeAll(of client: String) -> [Value] {
        let gone = values.values.filter { $0.owner == client }.map(\.value)
        values = values.filter { $0.value.owner != client }
        return gone
    }

    func exists(_ number: UInt64) -> Bool { values[number] != nil }
}
