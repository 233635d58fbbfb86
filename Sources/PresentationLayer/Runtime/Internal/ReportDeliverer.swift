/// A view model, seen only as what delivers the reports its work posts.
protocol ReportDeliverer: AnyObject, Sendable {
  /// Acts on the reports posted so far, in order.
  @MainActor func deliverReports()
}

/// A view model held weakly, by whatever may deliver its reports: a Task made for a delivery, or
/// an observer of its states.
///
/// A struct's `weak let` is stored in a closure's context like any other value, whereas
/// `[weak self]` (and a local `weak` variable) is a variable the closure keeps in a heap box of
/// its own: one more allocation for every delivery. Not generic, so that code not specialised for
/// a feature copies it without looking its metadata up.
struct WeakDeliverer: Sendable {
  weak let target: (any ReportDeliverer)?

  init(_ target: any ReportDeliverer) {
    self.target = target
  }
}
