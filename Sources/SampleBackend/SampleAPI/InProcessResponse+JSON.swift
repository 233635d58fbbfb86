import Foundation

extension InProcessResponse {
  /// The `Content-Type` of every JSON answer of the sample API.
  public static let jsonContentType = "application/json; charset=utf-8"

  /// A JSON response with `value` as its body. Should encoding fail, the answer is a 500 in the
  /// contract's error shape rather than a crash.
  public static func json(_ status: Int, _ value: some Encodable) -> InProcessResponse {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    guard let body = try? encoder.encode(value) else { return .error(500, "encoding failed") }
    return InProcessResponse(status: status, headers: ["Content-Type": jsonContentType], body: body)
  }

  /// An answer in the contract's error shape: `{"error": message}`, as JSON.
  public static func error(_ status: Int, _ message: String) -> InProcessResponse {
    let body = Data(#"{"error":\#(quoted(message))}"#.utf8)
    return InProcessResponse(status: status, headers: ["Content-Type": jsonContentType], body: body)
  }

  static func unauthorized(challenge: String) -> InProcessResponse {
    var response = error(401, "unauthorized")
    response.headers["WWW-Authenticate"] = challenge
    return response
  }

  private static func quoted(_ text: String) -> String {
    guard let data = try? JSONEncoder().encode(text) else { return "\"\"" }
    return String(decoding: data, as: UTF8.self)
  }
}
