public import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A loopback TCP port held bound and never listening, for as long as this value lives.
///
/// A connection to it is refused, every time: no other socket can take the port meanwhile,
/// except one of the same user that also sets `SO_REUSEPORT`, which is how
/// ``LoopbackSampleAPI/start(on:)`` serves it and, once stopped, serves it again.
///
/// A port freed by stopping a server offers neither guarantee: the system may hand it to the next
/// server any test of the run starts, so a test that expects a refusal there, or restarts a server
/// there, could meet another test's server instead.
public final class ReservedLoopbackPort: Sendable {
  /// Why the port could not be reserved: the call that failed and the system's reason.
  public struct ReservationError: Error, CustomStringConvertible {
    /// The failed call and the system's words for why.
    public let description: String
  }

  /// The port's number.
  public let port: Int
  /// `http://127.0.0.1:<port>`.
  public let baseURL: URL
  private let descriptor: Int32

  /// Reserves a free port on 127.0.0.1.
  public init() throws(ReservationError) {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Self.failure("socket") }
    var enabled: Int32 = 1
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    do throws(ReservationError) {
      let optionSize = socklen_t(MemoryLayout<Int32>.size)
      try Self.check(setsockopt(descriptor, SOL_SOCKET, SO_REUSEPORT, &enabled, optionSize), "SO_REUSEPORT")
      try withUnsafeMutablePointer(to: &address) { pointer throws(ReservationError) in
        try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(ReservationError) in
          try Self.check(bind(descriptor, address, length), "bind")
          try Self.check(getsockname(descriptor, address, &length), "getsockname")
        }
      }
    } catch {
      close(descriptor)
      throw error
    }
    self.descriptor = descriptor
    port = Int(UInt16(bigEndian: address.sin_port))
    baseURL = URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
  }

  deinit {
    close(descriptor)
  }

  /// Throws, naming `call`, if its `result` says it failed.
  private static func check(_ result: Int32, _ call: String) throws(ReservationError) {
    if result != 0 { throw failure(call) }
  }

  private static func failure(_ call: String) -> ReservationError {
    let reason = String(cString: strerror(errno))
    return ReservationError(description: "could not reserve a loopback port: \(call): \(reason)")
  }
}
