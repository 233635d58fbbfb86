import Foundation

/// A request as a ``SampleRoute`` handler sees it: the parsed request plus the values of the
/// template's `{name}` segments, with helpers that answer bad input the way the built-in routes do.
public struct SampleRouteRequest: Sendable {
  /// The request: method, path, query, headers (`Authorization` included) and body.
  public let request: InProcessRequest
  /// The template's parameters by name, percent-decoded: `/todos/{id}` on `/todos/7` gives
  /// `["id": "7"]`.
  public let parameters: [String: String]

  /// Creates the request a handler gets; the sample API does this when it dispatches.
  public init(request: InProcessRequest, parameters: [String: String]) {
    self.request = request
    self.parameters = parameters
  }

  /// The parameter `name` as an id: ASCII digits only (no sign, no spaces) that fit an `Int`.
  /// Anything else, as with the built-in `/todos/{id}`, should be answered as not found.
  public func id(_ name: String = "id") -> Int? {
    guard let text = parameters[name], !text.isEmpty,
      text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) })
    else { return nil }
    return Int(text)
  }

  /// The body decoded as `Value`, or the 400 answer to send instead: `malformed JSON body` when
  /// it is not JSON, `JSON body must be an object` when it is not an object (the built-in
  /// routes' messages), and `invalid body` when the object does not decode as `Value`.
  public func decodeBody<Value: Decodable>(
    _ type: Value.Type = Value.self
  ) -> Result<Value, SampleRouteRejection> {
    do throws(JSONObjectReader.Rejection) {
      _ = try JSONObjectReader(request.body)
    } catch {
      return .failure(SampleRouteRejection(status: error.status, message: error.message))
    }
    guard let value = try? JSONDecoder().decode(Value.self, from: request.body) else {
      return .failure(SampleRouteRejection(status: 400, message: "invalid body"))
    }
    return .success(value)
  }
}

/// A request a route refuses: the status and the message of its `{"error": message}` answer.
public struct SampleRouteRejection: Error, Sendable, Hashable {
  /// The status to answer with.
  public let status: Int
  /// The `error` field of the answer.
  public let message: String

  /// Creates a rejection.
  public init(status: Int, message: String) {
    self.status = status
    self.message = message
  }

  /// The contract's error answer for this rejection.
  public var response: InProcessResponse { .error(status, message) }
}
