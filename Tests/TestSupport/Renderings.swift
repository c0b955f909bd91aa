/// Every text a program might log for a value: `description`, `String(reflecting:)`,
/// `dump` and `debugDescription`. The secrets-in-output tests search them for markers.
public func renderings(of value: Any) -> [String] {
    var dumped = ""
    dump(value, to: &dumped)
    var renderings = [String(describing: value), String(reflecting: value), dumped]
    if let value = value as? CustomDebugStringConvertible { renderings.append(value.debugDescription) }
    return renderings
}
