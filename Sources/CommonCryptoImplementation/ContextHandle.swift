import Foundation

/// What a CommonDigest or CommonHMAC context holds: a number naming its state in a table.
///
/// Apple's contexts are plain C structures, and code allocates them without initializing them
/// (`UnsafeMutablePointer<CCHmacContext>.allocate(capacity: 1)`, then `CCHmacInit`), or copies
/// them; swift-crypto's state cannot live in such memory, so the context's first 16 bytes hold
/// this handle instead. The check word tells a handle that Init wrote from leftover bytes.
struct ContextHandle: Sendable, Equatable {
    var id: UInt64 = 0
    var check: UInt64 = 0

    private static let checkMask: UInt64 = 0x436F_6D6D_6F6E_4343

    static func fresh() -> ContextHandle {
        var generator = SystemRandomNumberGenerator()
        var id: UInt64 = 0
        while id == 0 { id = generator.next() }
        return ContextHandle(id: id, check: id ^ checkMask)
    }

    /// The handle at the start of a context, read as bytes: the memory may never have been
    /// initialized.
    static func load(from context: UnsafeMutableRawPointer) -> ContextHandle {
        context.loadUnaligned(as: ContextHandle.self)
    }

    func store(to context: UnsafeMutableRawPointer) {
        context.storeBytes(of: self, as: ContextHandle.self)
    }

    /// Whether this handle was written by Init, rather than being zeros or leftover bytes.
    var isWellFormed: Bool { id != 0 && check == id ^ Self.checkMask }
}

/// The states of the contexts in progress, by handle. A context's state leaves the table at
/// Final (or at the next Init of the same context); one abandoned before Final stays until the
/// process ends, as a small leak.
final class ContextTable<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var states: [UInt64: State] = [:]

    /// Starts a context: drops the state its handle named, if any, and stores a new one.
    func start(_ handle: inout ContextHandle, _ state: State) {
        let old = handle
        let new = ContextHandle.fresh()
        lock.withLock {
            if old.isWellFormed { states.removeValue(forKey: old.id) }
            states[new.id] = state
        }
        handle = new
    }

    /// Changes the state a handle names; false if it names none.
    func update(_ handle: ContextHandle, _ change: (inout State) -> Void) -> Bool {
        guard handle.isWellFormed else { return false }
        return lock.withLock {
            guard var state = states.removeValue(forKey: handle.id) else { return false }
            change(&state)
            states[handle.id] = state
            return true
        }
    }

    /// Takes the state a handle names out of the table, and empties the handle.
    func finish(_ handle: inout ContextHandle) -> State? {
        guard handle.isWellFormed else { return nil }
        let id = handle.id
        handle = ContextHandle()
        return lock.withLock { states.removeValue(forKey: id) }
    }

    /// The state a handle names, without changing it.
    func peek(_ handle: ContextHandle) -> State? {
        guard handle.isWellFormed else { return nil }
        return lock.withLock { states[handle.id] }
    }
}
