import Foundation
public import SampleBackend

/// An `InProcessHandler` that answers with a closure: the smallest way to make a test's server
/// say exactly one thing.
public struct StubHandler: InProcessHandler {
  private let respond: @Sendable (InProcessRequest) async -> InProcessReply

  /// Creates a handler that answers every request with what `respond` returns.
  public init(_ respond: @escaping @Sendable (InProcessRequest) async -> InProcessReply) {
    self.respond = respond
  }

  /// Answers with `respond`'s reply; the request reaches it unchanged.
  public func handle(_ request: InProcessRequest) async -> InProcessReply {
    await respond(request)
  }

  /// A transport to a stub that always gives `status`, `body` and `contentType`.
  public static func transport(
    status: Int,
    body: String,
    contentType: String? = "application/json"
  ) -> InProcessTransport {
    let headers = contentType.map { ["Content-Type": $0] } ?? [:]
    let response = InProcessResponse(status: status, headers: headers, body: Data(body.utf8))
    return InProcessTransport(StubHandler { _ in .respond(response) })
  }
}
