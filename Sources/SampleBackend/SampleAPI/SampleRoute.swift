/// One route of the sample API: a method, a path template and the handler that answers it.
///
/// The built-in contract routes are values of this type, and a package or a test that serves
/// its own endpoints registers more with ``SampleAPI/register(_:)``; both go through the same
/// dispatch, so an extra route gets the same 404/405 answers, counters, faults and bearer check
/// as the built-in ones.
public struct SampleRoute: Sendable {
  /// A route that clashes with one the API already serves.
  public struct Conflict: Error, Sendable, CustomStringConvertible {
    /// The clashing route, as `METHOD /template`.
    public let route: String

    /// Names the clashing route, for the failure message of the code that registered it.
    public var description: String { "the sample API already serves \(route)" }
  }

  /// The method it answers, upper-case.
  public let method: String
  /// The path template, e.g. `/todos/{id}/comments`: a `{name}` segment matches any one path
  /// segment (after percent-decoding) and is handed to the handler as a parameter.
  public let path: String
  /// Whether the request needs a valid bearer access token, checked exactly as for the todo
  /// routes (and relaxed with them by the `requireAuth` config flag).
  public let authenticated: Bool
  let handler: @Sendable (SampleRouteRequest) async -> InProcessResponse
  let segments: [Segment]

  enum Segment: Sendable, Equatable {
    case literal(String)
    case parameter(String)
  }

  /// Creates a route. `handler` runs only once the path matched, the method is `method` and,
  /// for an `authenticated` route, the bearer token was accepted; it may suspend (cancellably).
  public init(
    _ method: String,
    _ path: String,
    authenticated: Bool,
    handler: @escaping @Sendable (SampleRouteRequest) async -> InProcessResponse
  ) {
    self.method = method.uppercased()
    self.path = path
    self.authenticated = authenticated
    self.handler = handler
    self.segments = path.split(separator: "/", omittingEmptySubsequences: true).map { segment in
      if segment.hasPrefix("{") && segment.hasSuffix("}") && segment.count > 2 {
        .parameter(String(segment.dropFirst().dropLast()))
      } else {
        .literal(String(segment))
      }
    }
  }

  /// The parameters of `pathSegments` when this route's template matches them.
  func match(_ pathSegments: [String]) -> [String: String]? {
    guard pathSegments.count == segments.count else { return nil }
    var parameters: [String: String] = [:]
    for (segment, value) in zip(segments, pathSegments) {
      switch segment {
      case .literal(let literal):
        guard literal == value else { return nil }
      case .parameter(let name):
        parameters[name] = value
      }
    }
    return parameters
  }

  /// Whether both routes answer the same requests: same method, and templates that differ at
  /// most in the names of their parameters.
  func clashes(with other: SampleRoute) -> Bool {
    method == other.method && segments.map(\.shape) == other.segments.map(\.shape)
  }
}

extension SampleRoute.Segment {
  fileprivate var shape: String {
    switch self {
    case .literal(let literal): literal
    case .parameter: "{}"
    }
  }
}
