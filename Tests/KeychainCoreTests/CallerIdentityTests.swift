@testable import KeychainCore
import Testing

/// A caller's groups keep their order (the first is where new items go) without empty or
/// repeated entries, whether the list is short and clean or not.
@Suite struct CallerIdentityTests {
    @Test("a clean list of groups is kept as given")
    func cleanListKept() {
        #expect(CallerIdentity(accessGroups: []).accessGroups == [])
        #expect(CallerIdentity(accessGroups: ["b", "a", "*"]).accessGroups == ["b", "a", "*"])
        #expect(CallerIdentity(accessGroups: ["b", "a", "*"]).defaultGroup == "b")
    }

    @Test("empty and repeated groups are dropped, the first of each kept in order")
    func duplicatesDropped() {
        #expect(CallerIdentity(accessGroups: ["a", "", "a", "b", "b"]).accessGroups == ["a", "b"])
        #expect(CallerIdentity(accessGroups: ["", "x"]).accessGroups == ["x"])
        #expect(CallerIdentity(accessGroups: ["", "x"]).defaultGroup == "x")
        // Longer lists than the short path takes.
        let long = (0..<20).map { "g\($0 % 7)" } + [""]
        #expect(CallerIdentity(accessGroups: long).accessGroups == (0..<7).map { "g\($0)" })
        let longClean = (0..<20).map { "g\($0)" }
        #expect(CallerIdentity(accessGroups: longClean).accessGroups == longClean)
    }
}
