/// A write sealed under class keys that a password change has since replaced.
struct StaleClassKeys: Error {}
