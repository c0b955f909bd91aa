/// The threads that queued a change in the last few milliseconds, with when they last did.
struct RecentWriters {
    /// How long, in nanoseconds, a thread counts as a writer after its last change: a few
    /// commits' time, so that a thread that stopped writing delays others only briefly.
    let window: UInt64
    private var threads: [(id: UInt, time: UInt64)] = []

    init(window: UInt64) {
        self.window = window
    }

    mutating func note(thread: UInt, at time: UInt64) {
        if let index = threads.firstIndex(where: { $0.id == thread }) {
            threads[index].time = time
        } else {
            threads.append((thread, time))
        }
    }

    /// How many threads wrote within the window before `time`, forgetting the others.
    mutating func count(at time: UInt64) -> Int {
        threads.removeAll { $0.time < time && time - $0.time > window }
        return threads.count
    }
}
