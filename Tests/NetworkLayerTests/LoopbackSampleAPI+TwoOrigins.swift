import LayeredTestSupport

extension LoopbackSampleAPI {
  /// Runs `body` against two loopback servers, so two origins (their ports differ): `api`, the
  /// one a client is for, and `elsewhere`, each as a connection that reads its counters and logs.
  static func withTwoOrigins(
    _ body: (_ api: SampleBackendConnection, _ elsewhere: SampleBackendConnection) async throws -> Void
  ) async throws {
    try await with { api in
      try await with { elsewhere in
        try await body(
          SampleBackendConnection(baseURL: api.baseURL, session: .loopbackTesting()),
          SampleBackendConnection(baseURL: elsewhere.baseURL, session: .loopbackTesting()))
      }
    }
  }
}
