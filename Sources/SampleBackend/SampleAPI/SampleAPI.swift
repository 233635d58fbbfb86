import Foundation
import LayeredSupport

/// The sample backend's contract, implemented in process.
///
/// It serves the same routes, data, statuses and control hooks as `scripts/sample_api.py` (the
/// contract tests hold the two together), without a socket: a client reaches it through the
/// ``InProcessTransport`` that ``transport()`` makes. It is the embedded default for
/// `swift run showcase` and the fast path for tests; the Python twin covers what only a network
/// shows.
///
/// Every instance has its own state (todos, tokens, faults, counters), so tests can each use
/// one without seeing each other.
///
/// A package built on Layered, or a test, serves endpoints of its own next to the contract's by
/// registering a ``SampleRoute`` with ``register(_:)``: its handler gets the request with the
/// template's parameters decoded, JSON helpers, and (for an authenticated route) the same
/// bearer check as the todo routes, so it sees the token a login through the app signed with.
public final class SampleAPI: InProcessHandler {
  let state = Locked(SampleAPIState())
  /// Routes added with ``register(_:)``, matched after the built-in ones.
  let extraRoutes = Locked<[SampleRoute]>([])
  /// Live, not part of `state`: a reset ends no delay.
  let delays = InjectedDelays()

  /// Creates an API holding the seed data.
  public init() {}

  /// A new transport to this API, on a host of its own; give a client the transport and its
  /// base URL.
  public func transport() -> InProcessTransport {
    InProcessTransport(self)
  }

  /// Answers one request as the contract says: control hooks first, then (counted on arrival)
  /// any injected fault, then the route, including those added with ``register(_:)``.
  public func handle(_ request: InProcessRequest) async -> InProcessReply {
    if request.path.hasPrefix("/_control/") {
      return .respond(control(request))
    }

    let faulted = state.withLock { state -> (fault: SampleFault, delay: InjectedDelays.Ticket?)? in
      state.counters.requests += 1
      if request.header("Authorization") != nil { state.counters.authorized += 1 }
      state.counters.paths["\(request.method) \(request.percentEncodedPath)", default: 0] += 1
      // Counted on arrival, so faulted and cancelled attempts show up too.
      if request.method == "POST" && request.path == "/auth/login" { state.counters.logins += 1 }
      if request.method == "POST" && request.path == "/auth/refresh" { state.counters.refreshes += 1 }
      guard let fault = state.consumeFault(method: request.method, path: request.path) else { return nil }
      // In progress as the request is counted, so a release that follows the count finds it.
      return (fault, (fault.delay ?? 0) > 0 ? delays.begin() : nil)
    }
    guard let faulted else { return .respond(await route(request)) }
    return await apply(faulted.fault, delay: faulted.delay, to: request)
  }

  private func apply(
    _ fault: SampleFault,
    delay ticket: InjectedDelays.Ticket?,
    to request: InProcessRequest
  ) async -> InProcessReply {
    if let ticket, let delay = fault.delay, await !delays.wait(ticket, seconds: delay) {
      state.withLock { $0.counters.cancelled += 1 }
      return .fail(.cancelled)
    }
    if fault.body == .reset {
      return .fail(.networkConnectionLost)
    }
    // What this toolchain reports when a server closes the connection before any response.
    if fault.body == .close {
      return .fail(.badServerResponse)
    }
    var response: InProcessResponse
    if let status = fault.status {
      response = .error(status, "injected fault")
      if let retryAfter = fault.retryAfter { response.headers["Retry-After"] = retryAfter }
      if let location = fault.location { response.headers["Location"] = location }
    } else {
      response = await route(request)
    }
    // 204 and 304 never carry a body, so there is nothing for a body fault to damage.
    if response.status == 204 || response.status == 304 { return .respond(response) }
    switch fault.body {
    case .malformed?:
      response.body = Data(#"{"this is": not json"#.utf8)
    case .empty?:
      response.body = Data()
    case .truncated?:
      return .truncate(response, bytesSent: response.body.count / 2)
    case .reset?, .close?, nil:
      break
    }
    return .respond(response)
  }
}
