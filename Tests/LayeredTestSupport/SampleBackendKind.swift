import Foundation
import LayeredSupport
import SampleBackend
public import Testing

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// The two implementations of the sample API contract.
public enum SampleBackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// `SampleAPI` in process, through its `InProcessTransport`.
  case embedded
  /// `scripts/sample_api.py` over loopback sockets.
  case loopback

  /// The kind's name, as parameterised tests show it.
  public var testDescription: String { rawValue }

  /// Runs `body` against a fresh backend of this kind and tears it down afterwards.
  ///
  /// When the loopback server cannot run here (no python3, and `CI` not set), the current test
  /// case is cancelled with the reason, so it shows as skipped rather than as a silent pass.
  /// `body` runs in the caller's isolation, so a `@MainActor` test can drive view models in it.
  public func with<T: Sendable>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (SampleBackendConnection) async throws -> T
  ) async throws -> T {
    switch self {
    case .embedded:
      return try await body(SampleBackendConnection(SampleAPI().transport()))
    case .loopback:
      guard LoopbackSampleAPI.shouldRun else { try Test.cancel(LoopbackSampleAPI.skipReason) }
      // Taken away and brought back at the same URL: the port stays reserved in between, so the
      // client meets a refusal while the server is away and never another test's server.
      let port = try ReservedLoopbackPort()
      let started = try await LoopbackSampleAPI.start(on: port)
      let current = Locked<LoopbackSampleAPI?>(started)
      let connection = SampleBackendConnection(baseURL: port.baseURL, session: .loopbackTesting()) {
        reachable in
        if reachable {
          let restarted = try await LoopbackSampleAPI.start(on: port)
          current.withLock { $0 = restarted }
        } else {
          let running = current.withLock { server in
            defer { server = nil }
            return server
          }
          await running?.stop()
        }
      }
      do {
        let result = try await body(connection)
        await current.withLock({ $0 })?.stop()
        return result
      } catch {
        await current.withLock({ $0 })?.stop()
        throw error
      }
    }
  }
}

extension URLSession {
  /// A session for loopback tests: no cache, no cookies, nothing kept between requests.
  public static func loopbackTesting() -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration)
  }
}
