/// The simplest multicast there is: a list of callbacks, each called in turn on every value.
/// What a Combine `PassthroughSubject` with sinks boils down to, without any of its machinery.
@MainActor
final class CallbackSubject<Value> {
  private var subscribers: [(Value) -> Void] = []

  func subscribe(_ subscriber: @escaping (Value) -> Void) {
    subscribers.append(subscriber)
  }

  func send(_ value: Value) {
    for subscriber in subscribers { subscriber(value) }
  }
}
