import Foundation
import SampleBackend
public import Testing

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// The two implementations of the sample API contract.
public enum SampleBackendKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// ``SampleAPI`` in process, through ``InProcessURLProtocol``.
  case embedded
  /// `scripts/sample_api.py` over loopback sockets.
  case loopback

  public var testDescription: String { rawValue }

  /// Runs `body` against a fresh backend of this kind and tears it down afterwards.
  ///
  /// When the loopback server cannot run here (no python3, and `CI` not set), the current test
  /// case is cancelled with the reason, so it shows as skipped rather than as a silent pass.
  public func with<T: Sendable>(_ body: (SampleBackendConnection) async throws -> T) async throws -> T {
    switch self {
    case .embedded:
      let mount = SampleAPI().mount()
      defer { mount.unmount() }
      return try await body(SampleBackendConnection(baseURL: mount.baseURL, session: mount.makeSession()))
    case .loopback:
      guard LoopbackSampleAPI.shouldRun else { try Test.cancel(LoopbackSampleAPI.skipReason) }
      return try await LoopbackSampleAPI.with { server in
        try await body(SampleBackendConnection(baseURL: server.baseURL, session: .loopbackTesting()))
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
