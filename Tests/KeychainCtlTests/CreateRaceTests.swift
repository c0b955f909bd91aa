import Foundation
import Testing
import TestTags

/// Creating a keychain is atomic across processes.
@Suite struct CreateRaceTests {
    let keychainctl = Keychainctl()

    @Test("create-keychain: of processes racing to create one keychain, exactly one succeeds, the others exit 48 (errSecDuplicateKeychain), and the keychain has the winner's password", .tags(.slow))
    func racingCreatesHaveOneWinner() throws {
        let racers = 4
        let run = try keychainctl.shell("""
            for i in \((1...racers).map(String.init).joined(separator: " ")); do
                ( "$0" create-keychain -p "pw-$i" race 2>/dev/null; echo "$i $?" ) &
            done
            wait
            """)
        #expect(run.status == 0)
        let outcomes = run.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(outcomes.count == racers)
        let winners = outcomes.filter { $0.last == "0" }.compactMap(\.first)
        #expect(winners.count == 1)
        #expect(outcomes.filter { $0.last == "48" }.count == racers - 1)
        // Only the winner's password opens it.
        try keychainctl("lock-keychain", "race")
        for racer in 1...racers {
            let unlocked = try keychainctl("unlock-keychain", "-p", "pw-\(racer)", "race")
            #expect((unlocked.status == 0) == (winners.first == String(racer)), "password of racer \(racer)")
        }
    }
}
