import Foundation
import Testing
import TestSupport

/// The chapter's sample app, driven through its prompts as a user would.
@Suite struct KeychainCardsTests {
    let app = ProgramProcess("keychain-cards")
    let dataHome = TestScratch.folder("cards")

    /// First launch: choose the PIN 1234, add one card, list, quit.
    static let firstLaunch = """
        1234
        1234
        add
        4111 1111 1111 1111
        12/27
        123
        Ada Lovelace
        list
        quit

        """

    @discardableResult
    func launchFirstTime() throws -> ProgramProcess.Outcome {
        try app.run(input: Self.firstLaunch, dataHome: dataHome)
    }

    @Test func theFirstLaunchChoosesAPINAndStoresACard() throws {
        let outcome = try launchFirstTime()
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("Choose a PIN"))
        #expect(outcome.output.contains("PIN saved."))
        #expect(outcome.output.contains("Card •••• 1111 of Ada Lovelace saved."))
        #expect(outcome.output.contains("1. Ada Lovelace  •••• 1111  expires 12/27"))
        #expect(outcome.errors.isEmpty)
    }

    @Test func theNextLaunchAsksForThePINAndShowsTheCard() throws {
        try launchFirstTime()
        let outcome = try app.run(input: "9999\n1234\nlist\nshow 1\nquit\n", dataHome: dataHome)
        #expect(outcome.status == 0)
        #expect(!outcome.output.contains("Choose a PIN"))
        #expect(outcome.output.contains("Wrong PIN. 2 tries left."))
        #expect(outcome.output.contains("1. Ada Lovelace  •••• 1111  expires 12/27"))
        #expect(outcome.output.contains("Number:          4111 1111 1111 1111"))
        #expect(outcome.output.contains("CV2 code:        123"))
    }

    @Test func threeWrongPINsEndTheProgram() throws {
        try launchFirstTime()
        let outcome = try app.run(input: "0000\n1111\n2222\nlist\n", dataHome: dataHome)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("Wrong PIN 3 times. Exiting."))
        #expect(!outcome.output.contains("Ada Lovelace"))
    }

    @Test func resetErasesThePINAndTheCards() throws {
        try launchFirstTime()
        let reset = try app.run(input: "1234\nreset\nyes\n", dataHome: dataHome)
        #expect(reset.status == 0)
        #expect(reset.output.contains("PIN and cards erased."))

        // The next launch starts over: a new PIN, and no cards.
        let next = try app.run(input: "5678\n5678\nlist\nquit\n", dataHome: dataHome)
        #expect(next.output.contains("Choose a PIN"))
        #expect(next.output.contains("No cards yet."))
        #expect(try app.run(input: "1234\n", dataHome: dataHome).status == 1)
    }

    @Test func resetNeedsConfirmation() throws {
        try launchFirstTime()
        let outcome = try app.run(input: "1234\nreset\nno\nlist\nquit\n", dataHome: dataHome)
        #expect(outcome.output.contains("Nothing erased."))
        #expect(outcome.output.contains("1. Ada Lovelace"))
    }

    @Test func choosingAPINTakesTwoMatchingEntries() throws {
        let outcome = try app.run(input: "1234\n4321\n12\n1234\n1234\nquit\n", dataHome: dataHome)
        #expect(outcome.output.contains("The two PINs differ."))
        #expect(outcome.output.contains("A PIN is 4 to 8 digits."))
        #expect(outcome.output.contains("PIN saved."))
        #expect(try app.run(input: "1234\nquit\n", dataHome: dataHome).status == 0)
    }

    @Test func severalCardsAreListedShownAndDeleted() throws {
        try launchFirstTime()
        let input = """
            1234
            add
            5500 0000 0000 0004
            01/29
            4567
            Grace Hopper
            add
            1234
            4000 0000 0000 0002
            13/30
            02/30
            12a
            999
            Alan Turing
            delete 1
            list
            show 2
            show 7
            quit

            """
        let outcome = try app.run(input: input, dataHome: dataHome)
        #expect(outcome.status == 0)
        // The second card's bad number, month and code were asked again.
        #expect(outcome.output.components(separatedBy: "That does not look right").count - 1 == 3)
        #expect(outcome.output.contains("Card 1 deleted."))
        #expect(outcome.output.contains("1. Grace Hopper  •••• 0004  expires 01/29"))
        #expect(outcome.output.contains("2. Alan Turing  •••• 0002  expires 02/30"))
        #expect(!outcome.output.contains("Ada Lovelace  ••••"))
        #expect(outcome.output.contains("Name:            Alan Turing"))
        #expect(outcome.output.contains("There is no card 7."))
    }

    @Test func theEndOfTheInputEndsTheProgram() throws {
        let outcome = try app.run(input: "", dataHome: dataHome)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("No PIN was chosen."))
    }
}
