/// An HTTP request method.
///
/// A struct rather than an enum so that an app can name a method this package does not list,
/// without a fork. A name that is not an RFC 9110 token (a space, CR or LF, say) fails the
/// request with ``NetworkError/invalidRequest(_:)`` before anything is sent, so a method can
/// never forge the request line or a header.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable {
  /// The method as it goes on the wire, in upper case.
  public let rawValue: String

  /// Creates a method from its wire name; the name is upper-cased.
  public init(rawValue: String) {
    self.rawValue = rawValue.uppercased()
  }

  /// `GET`: reads a resource; safe and idempotent, so it may be retried.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`: `GET` without the body; an empty answer is always acceptable, and it may be retried.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`: creates or acts; not idempotent, so it is retried only where the endpoint opts in.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`: replaces a resource; idempotent, so it may be retried.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `PATCH`: changes part of a resource; not idempotent, so it is retried only where the
  /// endpoint opts in.
  public static let patch = HTTPMethod(rawValue: "PATCH")
  /// `DELETE`: removes a resource; idempotent, so it may be retried.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`: asks what a resource supports; idempotent, so it may be retried.
  public static let options = HTTPMethod(rawValue: "OPTIONS")
  /// `TRACE`: asks the server to echo the request; idempotent, so it may be retried.
  public static let trace = HTTPMethod(rawValue: "TRACE")

  /// Whether RFC 9110 defines the method as idempotent, which makes it safe to retry.
  public var isIdempotent: Bool {
    Self.idempotentMethods.contains(self)
  }

  private static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]
}
