import DataLayer
import DomainLayer
import Foundation
import LayeredTestSupport
import NetworkLayer
import Testing

@Suite("NetworkError to DomainError")
struct NetworkErrorMappingTests {
  @Test(
    "each network failure becomes the domain error a screen can act on",
    arguments: [
      (NetworkError.cancelled, DomainError.cancelled),
      (
        .badStatus(code: 403, bodyExcerpt: #"{"detail":"not yours"}"#), .forbidden(serverMessage: "not yours")
      ),
      // OAuth's `error` is a code; its sentence is the `error_description`.
      (
        .badStatus(
          code: 403,
          bodyExcerpt: #"{"error":"insufficient_scope","error_description":"The token cannot read todos."}"#),
        .forbidden(serverMessage: "The token cannot read todos.")
      ),
      // Google's APIs nest it: `error.message`.
      (
        .badStatus(
          code: 403,
          bodyExcerpt:
            #"{"error":{"code":403,"message":"The caller does not have permission","status":"PERMISSION_DENIED"}}"#
        ),
        .forbidden(serverMessage: "The caller does not have permission")
      ),
      (.badStatus(code: 403, bodyExcerpt: "<html>Forbidden</html>"), .forbidden),
      (.badStatus(code: 404, bodyExcerpt: nil), .notFound),
      // A proxy's or a network portal's own sign-in: the server was never reached.
      (.badStatus(code: 407, bodyExcerpt: "<html>Proxy Authentication Required</html>"), .offline),
      (.badStatus(code: 511, bodyExcerpt: "<html>Sign in to the Wi-Fi</html>"), .offline),
      // Only the auth interceptor ends a session. A bare 401 wanted credentials the request never
      // carried, such as another origin's, where a redirect led: signing in again would not help.
      (.unauthorized, .sessionExpired),
      (.refreshFailed(reason: "HTTP 401"), .sessionExpired),
      (.excessiveRefresh, .sessionExpired),
      (
        .badStatus(code: 401, bodyExcerpt: #"{"message":"Sign in to the file store first."}"#),
        .forbidden(serverMessage: "Sign in to the file store first.")
      ),
      (
        .refused(status: 422, message: "Check the form.", fieldErrors: ["title": ["Too long."]]),
        .rejected(message: "Check the form.", fieldErrors: ["title": ["Too long."]])
      ),
      // A refresh refused with field errors is still a refused refresh: the refresh's status.
      (
        .refreshUnavailable(.refused(status: 409, message: nil, fieldErrors: ["refresh": ["Stale."]])),
        .server(status: 409)
      ),
      // What was sent was refused, with the server's sentence when it gave one and no field named:
      // NestJS's validation list, a conflict, Stripe's declined card, a proxy's page for a body
      // too large. Sending the same again will not help.
      (
        .badStatus(
          code: 400,
          bodyExcerpt: #"{"statusCode":400,"message":["title should not be empty"],"error":"Bad Request"}"#),
        .rejected(message: "title should not be empty", fieldErrors: [:])
      ),
      (
        .badStatus(code: 409, bodyExcerpt: #"{"message":"A todo with this title already exists."}"#),
        .rejected(message: "A todo with this title already exists.", fieldErrors: [:])
      ),
      (
        .badStatus(
          code: 402, bodyExcerpt: #"{"error":{"message":"Your card was declined.","type":"card_error"}}"#),
        .rejected(message: "Your card was declined.", fieldErrors: [:])
      ),
      (
        .badStatus(code: 413, bodyExcerpt: "<html>413 Request Entity Too Large</html>"),
        .rejected(message: nil, fieldErrors: [:])
      ),
      // So is a URL too long for the server (nginx's 414 for a search of 9,000 characters) or
      // header fields too large: sending the same again will not help either.
      (
        .badStatus(
          code: 414, bodyExcerpt: "<html><head><title>414 Request-URI Too Large</title></head></html>"),
        .rejected(message: nil, fieldErrors: [:])
      ),
      (.badStatus(code: 431, bodyExcerpt: nil), .rejected(message: nil, fieldErrors: [:])),
      // Unavailable for legal reasons: not this user's to see, here.
      (
        .badStatus(code: 451, bodyExcerpt: #"{"message":"Not available in your country."}"#),
        .forbidden(serverMessage: "Not available in your country.")
      ),
      // A status about how the request was built, not what it carried, is the app's to fix.
      (.badStatus(code: 405, bodyExcerpt: nil), .unexpected(reason: "HTTP status 405")),
      (.badStatus(code: 500, bodyExcerpt: "boom"), .server(status: 500)),
      (.badStatus(code: 503, bodyExcerpt: nil), .server(status: 503)),
      // Too many requests passes in a moment, as a server error does; a 408 is the server's timeout.
      (.badStatus(code: 429, bodyExcerpt: #"{"message":"API rate limit exceeded"}"#), .server(status: 429)),
      (.badStatus(code: 408, bodyExcerpt: nil), .timeout),
      (.transport(code: URLError.Code.timedOut.rawValue), .timeout),
      (.transport(code: URLError.Code.notConnectedToInternet.rawValue), .offline),
      (.transport(code: URLError.Code.cannotConnectToHost.rawValue), .offline),
      (.transport(code: URLError.Code.networkConnectionLost.rawValue), .offline),
      (.transport(code: URLError.Code.cancelled.rawValue), .cancelled),
      // A redirect loop, or a redirect to nowhere, is the server's configuration at fault.
      (.transport(code: URLError.Code.httpTooManyRedirects.rawValue), .server(status: nil)),
      (.transport(code: URLError.Code.redirectToNonExistentLocation.rawValue), .server(status: nil)),
      (.transport(code: URLError.Code.badServerResponse.rawValue), .server(status: nil)),
      // A refresh that failed without ending the session is the refresh's failure, whatever the
      // status of the refresh endpoint: never the resource's "not found" or "forbidden".
      (.refreshUnavailable(.badStatus(code: 404, bodyExcerpt: nil)), .server(status: 404)),
      (.refreshUnavailable(.badStatus(code: 403, bodyExcerpt: nil)), .server(status: 403)),
      // Unless the network stopped it on its way, as it stops any other request.
      (.refreshUnavailable(.badStatus(code: 407, bodyExcerpt: nil)), .offline),
      (
        .refreshUnavailable(.badStatus(code: 511, bodyExcerpt: "<html>Sign in to the Wi-Fi</html>")), .offline
      ),
      (.refreshUnavailable(.transport(code: URLError.Code.notConnectedToInternet.rawValue)), .offline),
      (.refreshUnavailable(.timeout), .timeout),
      (.refreshUnavailable(.decodingFailed(path: "accessToken", reason: "missing")), .server(status: nil)),
    ]
  )
  func mapping(network: NetworkError, domain: DomainError) {
    #expect(network.domainError == domain)
  }

  @Test(
    "responses the app cannot read become invalid data",
    arguments: [
      NetworkError.noData,
      .decodingFailed(path: "[0].title", reason: "expected String"),
      .unacceptableContentType(received: "text/html", accepted: "application/json"),
      .invalidResponse,
      .responseTooLarge(limit: 1_024),
      .transport(code: URLError.Code.cannotParseResponse.rawValue),
      .transport(code: URLError.Code.cannotDecodeContentData.rawValue),
    ]
  )
  func unreadable(network: NetworkError) {
    guard case .invalidData = network.domainError else {
      Issue.record("\(network) should be invalid data")
      return
    }
  }

  @Test(
    "a refusal's field errors are keyed by the domain's names for the fields a repository names, the server's for the rest"
  )
  func fieldNamesOfTheDomain() async {
    // ASP.NET Core's validation problem: property names as the model spells them.
    let body =
      #"{"type":"https://tools.ietf.org/html/rfc9110#section-15.5.1","title":"One or more validation errors occurred.","status":400,"errors":{"Content":["The Content field is required."],"DueDate":["The DueDate field is not a date."]}}"#
    let error = await Self.rejection(
      status: 400, body: body, contentType: "application/problem+json", fieldNames: ["Content": "title"])
    #expect(
      error
        == .rejected(
          message: "One or more validation errors occurred.",
          fieldErrors: [
            "title": ["The Content field is required."], "DueDate": ["The DueDate field is not a date."],
          ]
        ))
  }

  @Test(
    "a field the backend names by a dotted path, as Django Ninja files the body under the view's parameter, is renamed whole"
  )
  func dottedFieldNamesOfTheDomain() async {
    // Django Ninja 1.7's answer to `{"title": ""}` posted to a view whose body parameter is `payload`.
    let body =
      #"{"detail": [{"type": "string_too_short", "loc": ["body", "payload", "title"], "msg": "String should have at least 1 character", "ctx": {"min_length": 1}}, {"type": "int_parsing", "loc": ["query", "limit"], "msg": "Input should be a valid integer"}]}"#
    let error = await Self.rejection(
      status: 422, body: body, contentType: "application/json", fieldNames: ["payload.title": "title"])
    #expect(
      error
        == .rejected(
          message: nil,
          fieldErrors: [
            "title": ["String should have at least 1 character"],
            "limit": ["Input should be a valid integer"],
          ]
        ))
  }

  /// The domain error a create ends in when the server refuses it with `body`, the repository
  /// naming the backend's fields by `fieldNames`; `nil`, with an issue recorded, if it succeeds.
  private static func rejection(
    status: Int, body: String, contentType: String, fieldNames: [String: String]
  ) async -> DomainError? {
    let server = StubHandler.transport(status: status, body: body, contentType: contentType)
    let client = URLSessionHTTPClient(baseURL: server.baseURL, transport: server)
    let create = Endpoint<NoContent>(method: .post, path: ["todos"], body: .json(["title": ""]))
    do {
      _ = try await client.sendTranslatingErrors(create, fieldNames: fieldNames)
      Issue.record("the refusal was not thrown")
      return nil
    } catch {
      return error
    }
  }
}
