/// One output of a ``ViewModel``, in the order it happened: what the test store records.
package enum ViewModelOutput<F: Feature> {
  /// The state changed to this.
  case state(F.State)
  /// This event was emitted.
  case event(F.Event)
  /// A piece of work ended (returned, or was superseded, dropped or cancelled).
  case workEnded
}
