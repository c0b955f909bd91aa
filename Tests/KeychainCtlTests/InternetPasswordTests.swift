import Foundation
import Testing

/// add-, find- and delete-internet-password.
@Suite struct InternetPasswordTests {
    let keychainctl = Keychainctl()

    @Test func findPrintsTheAttributeBlockAsSecurityDoes() throws {
        let added = try keychainctl("add-internet-password", "-a", "bob", "-s", "git.example.com", "-w", "tok",
                                    "-r", "htps", "-P", "8080", "-p", "/repo", "-d", "CORP")
        #expect(added.status == 0)
        let found = try keychainctl("find-internet-password", "-s", "git.example.com")
        #expect(found.status == 0)
        #expect(found.output.withDatesChecked == [
            "keychain: \"\(keychainctl.loginPath)\"",
            "version: 512",
            "class: \"inet\"",
            "attributes:",
            "    0x00000007 <blob>=\"git.example.com\"",
            "    0x00000008 <blob>=<NULL>",
            "    \"acct\"<blob>=\"bob\"",
            "    \"atyp\"<blob>=\"dflt\"",
            "    \"cdat\"<timedate>=<date>",
            "    \"crtr\"<uint32>=<NULL>",
            "    \"cusi\"<sint32>=<NULL>",
            "    \"desc\"<blob>=<NULL>",
            "    \"icmt\"<blob>=<NULL>",
            "    \"invi\"<sint32>=<NULL>",
            "    \"mdat\"<timedate>=<date>",
            "    \"nega\"<sint32>=<NULL>",
            "    \"path\"<blob>=\"/repo\"",
            "    \"port\"<uint32>=0x00001F90 ",
            "    \"prot\"<blob>=<NULL>",
            "    \"ptcl\"<uint32>=\"htps\"",
            "    \"scrp\"<sint32>=<NULL>",
            "    \"sdmn\"<blob>=\"CORP\"",
            "    \"srvr\"<blob>=\"git.example.com\"",
            "    \"type\"<uint32>=<NULL>",
            "",
        ])
    }

    @Test func anItemWithoutPortOrProtocolHasZeros() throws {
        try keychainctl("add-internet-password", "-a", "bob", "-s", "ftp.example.com", "-w", "pw")
        let found = try keychainctl("find-internet-password", "-a", "bob")
        #expect(found.output.contains("    \"port\"<uint32>=0x00000000 \n"))
        #expect(found.output.contains("    \"ptcl\"<uint32>=0x00000000 \n"))
        #expect(found.output.contains("    \"atyp\"<blob>=\"dflt\"\n"))
    }

    @Test func theMatchFlagsNarrowTheSearch() throws {
        try keychainctl("add-internet-password", "-a", "bob", "-s", "example.com", "-r", "http", "-w", "plain")
        try keychainctl("add-internet-password", "-a", "bob", "-s", "example.com", "-r", "htps", "-w", "secure")
        #expect(try keychainctl("find-internet-password", "-s", "example.com", "-w").output == "plain\n")
        #expect(try keychainctl("find-internet-password", "-s", "example.com", "-r", "htps", "-w").output == "secure\n")
        #expect(try keychainctl("find-internet-password", "-s", "example.com", "-t", "form").status == 44)
        #expect(try keychainctl("find-internet-password", "-s", "example.com", "-P", "443").status == 44)
        let notFour = try keychainctl("find-internet-password", "-s", "example.com", "-r", "htp")
        #expect(notFour.status == 2)
        #expect(notFour.errors.contains("Usage: "))
    }

    @Test func minusUUpdatesAndDuplicatesExit45() throws {
        try keychainctl("add-internet-password", "-a", "bob", "-s", "example.com", "-w", "one")
        #expect(try keychainctl("add-internet-password", "-a", "bob", "-s", "example.com", "-w", "two").status == 45)
        #expect(try keychainctl("add-internet-password", "-U", "-a", "bob", "-s", "example.com", "-w", "two").status == 0)
        #expect(try keychainctl("find-internet-password", "-a", "bob", "-w").output == "two\n")
    }

    @Test func deletePrintsTheItemThenDeletesIt() throws {
        try keychainctl("add-internet-password", "-a", "bob", "-s", "example.com", "-w", "pw")
        let deleted = try keychainctl("delete-internet-password", "-s", "example.com")
        #expect(deleted.status == 0)
        #expect(deleted.output.contains("class: \"inet\"\n"))
        #expect(deleted.errors == "password has been deleted.\n")
        #expect(try keychainctl("find-internet-password", "-s", "example.com").status == 44)
    }
}
