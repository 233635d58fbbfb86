/// An HTTP request method.
///
/// A struct rather than an enum, so an app can name a method this package does not list. A name
/// that is not an RFC 9110 token fails with ``NetworkError/invalidRequest(_:)`` before sending.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable {
  /// The method as it goes on the wire, in upper case.
  public let rawValue: String

  /// Creates a method from its wire name; the name is upper-cased.
  public init(rawValue: String) {
    self.rawValue = rawValue.uppercased()
  }

  /// `GET`: reads a resource. Idempotent.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`: `GET` without the body, so its answer is empty. Idempotent.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`: creates or acts. Not idempotent: sending it twice may act twice.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`: replaces a resource. Idempotent.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `PATCH`: changes part of a resource. Not idempotent: sending it twice may act twice.
  public static let patch = HTTPMethod(rawValue: "PATCH")
  /// `DELETE`: removes a resource. Idempotent.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`: asks what a resource supports. Idempotent.
  public static let options = HTTPMethod(rawValue: "OPTIONS")
  /// `TRACE`: asks the server to echo the request back. Idempotent.
  public static let trace = HTTPMethod(rawValue: "TRACE")

  /// Whether RFC 9110 defines the method as idempotent, which makes it safe to retry.
  public var isIdempotent: Bool {
    Self.idempotentMethods.contains(self)
  }

  private static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]
}
