/// One page of a list: its items, and where the next page is.
public struct ListPage<Item: Sendable & Hashable>: Sendable, Hashable {
  /// The page's items, in the list's order.
  public var items: [Item]
  /// Where the next page is; `nil` on the last page.
  public var next: PageToken?

  /// Creates a page.
  public init(items: [Item], next: PageToken?) {
    self.items = items
    self.next = next
  }
}

/// Where the next page of a list is, readable only by the repository that made it: a screen
/// asks for more without knowing whether the backend pages by number, by cursor or by link.
/// Two tokens are equal when they are the same token, handed out by one page.
public struct PageToken: Sendable, Hashable {
  private final class Box: Sendable {
    let value: any Sendable

    init(_ value: any Sendable) {
      self.value = value
    }
  }

  private let box: Box

  /// A token holding `value`, what the repository needs to ask for the next page.
  public init(_ value: any Sendable) {
    box = Box(value)
  }

  /// The value the repository put in, if it is a `Value`.
  public func value<Value>(as type: Value.Type = Value.self) -> Value? {
    box.value as? Value
  }

  /// Whether both are the same token.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box
  }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(box))
  }
}
