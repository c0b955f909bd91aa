import Testing

extension Tag {
    /// A test that takes seconds on its own: it starts processes, kills them, waits out an
    /// interval or replays a corpus. `Scripts/test-fast` runs every test but these.
    @Tag public static var slow: Self
}
