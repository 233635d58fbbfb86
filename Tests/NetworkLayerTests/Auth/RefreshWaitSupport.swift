import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend

/// A refresher that hangs until the test releases it, deaf to cancellation, as a refresh stuck
/// on a dead connection would be. Each call answers with numbered fresh tokens.
final class StuckRefresher: TokenRefresher {
  private struct State {
    var calls = 0
    var released = false
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())
  /// Calls after the first `stuckCalls` answer at once.
  private let stuckCalls: Int
  /// What every call answers once released: new tokens, or this failure.
  private let failure: NetworkError?

  init(stuckCalls: Int = .max, failingWith failure: NetworkError? = nil) {
    self.stuckCalls = stuckCalls
    self.failure = failure
  }

  var calls: Int { state.withLock { $0.calls } }

  func refresh(_ tokens: AuthTokens) async throws(NetworkError) -> AuthTokens {
    let call = state.withLock { state in
      state.calls += 1
      return state.calls
    }
    if call <= stuckCalls {
      await withCheckedContinuation { continuation in
        let released = state.withLock { state in
          if !state.released { state.waiting.append(continuation) }
          return state.released
        }
        if released { continuation.resume() }
      }
    }
    if let failure { throw failure }
    return AuthTokens(accessToken: "at-fresh-\(call)", refreshToken: "rt-fresh-\(call)", expiresAt: nil)
  }

  /// Lets every stuck call, and every later one, answer.
  func release() {
    let waiting = state.withLock { state in
      state.released = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for continuation in waiting { continuation.resume() }
  }
}

/// An in-process server that answers every request with one todo and records the
/// `Authorization` header of each request it received, in order.
final class RecordingServer: Sendable {
  let received = Locked<[String?]>([])
  let mount: InProcessTransport

  init() {
    let received = self.received
    mount = InProcessTransport(
      StubHandler { request in
        received.withLock { $0.append(request.header("Authorization")) }
        let body = Data(#"{"userId":1,"id":1,"title":"a","completed":false}"#.utf8)
        return .respond(
          InProcessResponse(status: 200, headers: ["Content-Type": "application/json"], body: body))
      }
    )
  }

  func client(_ interceptors: [any RequestInterceptor]) -> URLSessionHTTPClient {
    URLSessionHTTPClient(baseURL: mount.baseURL, transport: mount, interceptors: interceptors)
  }

  static func endpoint(deadline: Duration? = nil) -> Endpoint<TestTodo> {
    Endpoint<TestTodo>(path: ["private"], requiresAuthentication: true, deadline: deadline)
  }
}

extension AuthTokens {
  static let knownExpired = AuthTokens(
    accessToken: "at-expired", refreshToken: "rt-expired", expiresAt: Date(timeIntervalSinceNow: -60))
  static let freshLogin = AuthTokens(accessToken: "at-login", refreshToken: "rt-login", expiresAt: nil)
}
