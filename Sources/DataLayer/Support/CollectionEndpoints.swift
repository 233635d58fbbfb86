public import NetworkLayer

/// The endpoints of one REST collection of `Item`s at `/{name}`, described once: list, detail,
/// create, update and delete, all carrying the user's credentials. An item is named by its
/// identifier as the backend writes it, a number or a text (`uuid.uuidString`, `cus_N5a…`),
/// sent as one path segment.
///
/// Creating is a `POST` and so is never retried automatically (a retry after a lost response
/// could create twice); an update is a `PATCH` (or a `PUT`) that sets values rather than
/// changing them by a delta, so it is marked idempotent and may be retried; a delete is
/// idempotent by method.
public struct CollectionEndpoints<Item: Decodable & Sendable>: Sendable {
  /// The collection's path segments, e.g. `["widgets"]`.
  public let path: [String]
  /// Whether every path ends with `/`, as Django REST framework's routes do (`/widgets/7/`).
  public let endsWithSlash: Bool

  /// The endpoints of the collection at `path`, each ending with `/` if `endsWithSlash`.
  public init(path: [String], endsWithSlash: Bool = false) {
    self.path = path
    self.endsWithSlash = endsWithSlash
  }

  /// `GET /{name}`: every item.
  public var list: Endpoint<[Item]> {
    slashed(Endpoint(path: path, requiresAuthentication: true))
  }

  /// `GET /{name}/{id}`: one item.
  public func item(id: some LosslessStringConvertible) -> Endpoint<Item> {
    slashed(Endpoint(path: path + [id.description], requiresAuthentication: true))
  }

  /// `POST /{name}` with `body`: creates an item. Never retried automatically.
  public func create(_ body: some Encodable & Sendable) -> Endpoint<Item> {
    slashed(Endpoint(method: .post, path: path, body: .json(body), requiresAuthentication: true))
  }

  /// `PATCH /{name}/{id}` with `body`, which must set values (never a delta): safe to retry.
  /// `method` is `.put` for a backend that takes only a whole replacement.
  public func update(
    id: some LosslessStringConvertible, _ body: some Encodable & Sendable, method: HTTPMethod = .patch
  ) -> Endpoint<Item> {
    slashed(
      Endpoint(
        method: method, path: path + [id.description], body: .json(body), requiresAuthentication: true,
        isIdempotent: true))
  }

  /// `DELETE /{name}/{id}`: removes an item; the answer has no content.
  public func delete(id: some LosslessStringConvertible) -> Endpoint<NoContent> {
    slashed(Endpoint(method: .delete, path: path + [id.description], requiresAuthentication: true))
  }

  private func slashed<Response>(_ endpoint: Endpoint<Response>) -> Endpoint<Response> {
    endsWithSlash ? endpoint.endingWithSlash() : endpoint
  }
}
