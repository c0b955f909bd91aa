// The status codes of CommonCrypto's calls, with Apple's names and values. Apple's header
// declares them in an anonymous enum, which Swift imports as `Int`; the calls return them as
// `CCCryptorStatus` (Int32), so code writes `CCCryptorStatus(kCCSuccess)` or `status == kCCSuccess`.

/// The status a CommonCrypto call returns.
public typealias CCStatus = Int32

/// The status a cryptor call returns.
public typealias CCCryptorStatus = Int32

/// The operation completed normally.
public var kCCSuccess: Int { 0 }
/// Illegal parameter value: an unknown algorithm or option, a missing pointer, a wrong key or IV size.
public var kCCParamError: Int { -4300 }
/// The output buffer is too small; the size needed is returned where the call returns a size.
public var kCCBufferTooSmall: Int { -4301 }
/// Memory allocation failed.
public var kCCMemoryFailure: Int { -4302 }
/// The input's length is not a multiple of the block size where no padding is used.
public var kCCAlignmentError: Int { -4303 }
/// The input did not decode or decrypt properly: wrong padding, or a key wrap that fails its check.
public var kCCDecodeError: Int { -4304 }
/// The function is not implemented for the algorithm or mode.
public var kCCUnimplemented: Int { -4305 }
/// A length overflowed.
public var kCCOverflow: Int { -4306 }
/// The random number generator failed.
public var kCCRNGFailure: Int { -4307 }
/// An error not covered by the other codes.
public var kCCUnspecifiedError: Int { -4308 }
/// A call made out of order.
public var kCCCallSequenceError: Int { -4309 }
/// A key of a size the algorithm does not take.
public var kCCKeySizeError: Int { -4310 }
/// The key is not valid.
public var kCCInvalidKey: Int { -4311 }

/// The status as the calls return it.
func status(_ code: Int) -> CCCryptorStatus {
    CCCryptorStatus(code)
}
