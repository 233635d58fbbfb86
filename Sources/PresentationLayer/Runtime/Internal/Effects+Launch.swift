extension Effects {
  // Both are called from the closure that starts a work's Task, which `ActionPlan` builds in the
  // feature's own module (see `README.md`): callable from there, compiled here.

  /// The effects of the work `workID` of `viewModel`.
  @usableFromInline
  init(viewModel: ViewModel<F>, workID: Int) {
    self.viewModel = viewModel
    self.workID = workID
    self.parent = nil
  }

  /// Tells the view model that the operation has returned, after everything it reported.
  @usableFromInline
  func operationReturned() {
    viewModel?.post(.returned(work: workID))
  }
}
