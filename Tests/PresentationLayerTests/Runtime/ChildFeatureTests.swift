import LayeredTestSupport
import PresentationLayer
import Testing

/// An editor, shown as a sheet: it saves a title through the backend and says when it is done;
/// stopping cancels its own save.
private struct EditorFeature: Feature {
  enum Action: Sendable {
    case titleChanged(String)
    case saveTapped
    case stopTapped
  }
  enum SideEffect: Sendable, Equatable {
    case titleChanged(String)
    case saveStarted
    case saveStopped
    case saveFailed(String)
  }
  struct State: Sendable, Equatable {
    var title = ""
    var isSaving = false
    var error: String?
  }
  enum Event: Sendable, Equatable { case saved(String) }
  enum Lane: Sendable, Hashable { case save }

  let backend: ScriptedBackend

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .titleChanged(let title):
      return .immediate(.titleChanged(title))
    case .saveTapped:
      let (backend, title) = (self.backend, state.title)
      return .run(.dropWhileBusy(.save), immediate: [.saveStarted]) { effects in
        switch await backend.respond(to: "save \(title)") {
        case .success: await effects.emit(.saved(title))
        case .failure(let failure): await effects.apply(.saveFailed(failure.message))
        }
      }
    case .stopTapped:
      return ActionPlan.immediate(.saveStopped).alongside(.cancel { $0 == .save })
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .titleChanged(let title): state.title = title
    case .saveStarted: state.isSaving = true
    case .saveStopped: state.isSaving = false
    case .saveFailed(let message):
      state.isSaving = false
      state.error = message
    }
  }
}

/// A list that presents the editor as a sheet and adds what it saved.
private struct ListFeature: Feature {
  enum Action: Sendable {
    case addTapped, dismissTapped
    case note(String)
    case editor(EditorFeature.Action)
    case editorFinished(EditorFeature.Event)
  }
  enum SideEffect: Sendable, Equatable {
    case presented, dismissed
    case noted(String)
    case added(String)
    case editor(EditorFeature.SideEffect)
  }
  struct State: Sendable, Equatable {
    var items: [String] = []
    var notes: [String] = []
    var editor: EditorFeature.State?
  }
  enum Lane: Sendable, Hashable { case editor(EditorFeature.Lane) }

  let editor: ChildFeature<ListFeature, EditorFeature>

  init(backend: ScriptedBackend) {
    editor = ChildFeature(
      EditorFeature(backend: backend), state: { $0.editor }, action: Action.editor,
      sideEffect: SideEffect.editor, lane: Lane.editor, event: Action.editorFinished)
  }

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .addTapped: .immediate(.presented)
    case .dismissTapped: ActionPlan.immediate(.dismissed).alongside(editor.cancel())
    case .note(let text): .immediate(.noted(text))
    case .editor(let action): editor.plan(for: action, in: state)
    case .editorFinished(.saved(let title)): .immediate(.added(title), .dismissed)
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .presented: state.editor = EditorFeature.State()
    case .dismissed: state.editor = nil
    case .noted(let text): state.notes.append(text)
    case .added(let title): state.items.append(title)
    case .editor(let effect):
      EditorFeature.reduce(&state.editor, effect)
    }
  }
}

/// Two editors of the same type side by side, each in lanes of its own.
private struct PairFeature: Feature {
  enum Action: Sendable {
    case left(EditorFeature.Action)
    case right(EditorFeature.Action)
    case closeLeft
  }
  enum SideEffect: Sendable, Equatable {
    case left(EditorFeature.SideEffect)
    case right(EditorFeature.SideEffect)
  }
  struct State: Sendable, Equatable {
    var left = EditorFeature.State()
    var right = EditorFeature.State()
  }
  enum Lane: Sendable, Hashable {
    case left(EditorFeature.Lane)
    case right(EditorFeature.Lane)
  }

  let left: ChildFeature<PairFeature, EditorFeature>
  let right: ChildFeature<PairFeature, EditorFeature>

  init(backend: ScriptedBackend) {
    left = ChildFeature(
      EditorFeature(backend: backend), state: { $0.left }, action: Action.left, sideEffect: SideEffect.left,
      lane: Lane.left)
    right = ChildFeature(
      EditorFeature(backend: backend), state: { $0.right }, action: Action.right,
      sideEffect: SideEffect.right,
      lane: Lane.right)
  }

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .left(let action): left.plan(for: action, in: state)
    case .right(let action): right.plan(for: action, in: state)
    case .closeLeft: left.cancel()
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .left(let effect): EditorFeature.reduce(&state.left, effect)
    case .right(let effect): EditorFeature.reduce(&state.right, effect)
    }
  }
}

/// The toy search screen, hosted as a child, with the parent's own note beside it.
private struct HostFeature: Feature {
  enum Action: Sendable {
    case search(SearchFeature.Action)
    case tapAndNote(String)
  }
  enum SideEffect: Sendable {
    case search(SearchFeature.SideEffect)
    case noted(String)
  }
  struct State: Sendable, Equatable {
    var search = SearchFeature.State()
    var notes: [String] = []
  }
  enum Lane: Sendable, Hashable { case search(SearchFeature.Lane) }

  let search: ChildFeature<HostFeature, SearchFeature>

  init(backend: ScriptedBackend) {
    search = ChildFeature(
      SearchFeature(backend: backend), state: { $0.search }, action: Action.search,
      sideEffect: SideEffect.search, lane: Lane.search)
  }

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .search(let action): search.plan(for: action, in: state)
    case .tapAndNote(let text):
      ActionPlan.immediate(.noted(text)).alongside(search.plan(for: .logIn, in: state))
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .search(let effect): SearchFeature.reduce(&state.search, effect)
    case .noted(let text): state.notes.append(text)
    }
  }
}

@Suite("ViewModel runtime: a child feature inside its parent", .timeLimit(.minutes(1)))
@MainActor
struct ChildFeatureTests {
  private let backend = ScriptedBackend()

  private func store() -> TestStore<ListFeature> {
    TestStore(ListFeature(backend: backend), initialState: .init())
  }

  /// Shows the editor, types "Milk" and taps save; returns the save's work.
  @discardableResult
  private func startSavingMilk(in store: TestStore<ListFeature>) -> TestStore<ListFeature>.Work {
    store.send(.addTapped) { $0.editor = .init() }
    store.send(.editor(.titleChanged("Milk"))) { $0.editor?.title = "Milk" }
    return store.send(.editor(.saveTapped)) { $0.editor?.isSaving = true }
  }

  @Test(
    "the child's actions, work and event run under the parent; its event comes back as the parent's action")
  func childRunsUnderParent() async {
    let store = store()
    startSavingMilk(in: store)
    backend.answer("save Milk")
    await store.receive {
      $0.items = ["Milk"]
      $0.editor = nil
    }
    await store.finish()
  }

  @Test("a failure in the child ends neither the child's input nor the parent's")
  func childFailureKeepsInput() async {
    let store = store()
    let firstSave = startSavingMilk(in: store)
    backend.answer("save Milk", with: .failure(.offline))
    await store.receive {
      $0.editor?.isSaving = false
      $0.editor?.error = "offline"
    }
    // The save's lane drops taps while busy: the failed save must have ended first.
    await firstSave.finish()
    store.send(.note("still here")) { $0.notes = ["still here"] }
    store.send(.editor(.saveTapped)) { $0.editor?.isSaving = true }
    backend.answer("save Milk")
    await store.receive {
      $0.items = ["Milk"]
      $0.editor = nil
    }
    await store.finish()
  }

  @Test("dismissing the sheet cancels the child's work, whose late result never shows")
  func dismissCancelsChildWork() async {
    let store = store()
    startSavingMilk(in: store)
    await backend.waitFor(.started("save Milk"))
    store.send(.dismissTapped) { $0.editor = nil }
    await backend.waitFor(.cancelled("save Milk"))
    // An action for a sheet that is gone does nothing.
    store.send(.editor(.saveTapped))
    await store.finish()
    #expect(store.state.items.isEmpty)
    #expect(backend.count(of: .started("save Milk")) == 1)
  }

  @Test("a child's own cancel ends its work alone and under its parent alike")
  func childsOwnCancel() async {
    let alone = TestStore(EditorFeature(backend: backend), initialState: .init())
    alone.send(.titleChanged("Tea")) { $0.title = "Tea" }
    alone.send(.saveTapped) { $0.isSaving = true }
    await backend.waitFor(.started("save Tea"))
    alone.send(.stopTapped) { $0.isSaving = false }
    await backend.waitFor(.cancelled("save Tea"))
    await alone.finish()

    let store = store()
    startSavingMilk(in: store)
    await backend.waitFor(.started("save Milk"))
    store.send(.editor(.stopTapped)) { $0.editor?.isSaving = false }
    await backend.waitFor(.cancelled("save Milk"))
    await store.finish()
    #expect(store.state.items.isEmpty)
  }

  @Test("a child's work dropped while busy takes the child's immediate effects with it, not the parent's")
  func droppedChildWorkTakesItsEffects() async {
    let viewModel = ViewModel(HostFeature(backend: backend), initialState: .init())
    viewModel.send(.search(.logIn))
    await backend.waitFor(.started("login"))
    viewModel.send(.search(.logIn))
    viewModel.send(.tapAndNote("tapped again"))
    #expect(viewModel.state.search.logInTaps == 1)
    #expect(viewModel.state.notes == ["tapped again"])
    backend.answer("login")
    await backend.waitFor(.returned("login"))
    #expect(backend.count(of: .started("login")) == 1)
  }

  @Test("cancelling one child leaves a sibling of the same type working")
  func cancelSparesSibling() async {
    let store = TestStore(PairFeature(backend: backend), initialState: .init())
    store.send(.left(.titleChanged("L"))) { $0.left.title = "L" }
    store.send(.right(.titleChanged("R"))) { $0.right.title = "R" }
    store.send(.left(.saveTapped)) { $0.left.isSaving = true }
    store.send(.right(.saveTapped)) { $0.right.isSaving = true }
    await backend.waitFor(.started("save L"))
    await backend.waitFor(.started("save R"))
    store.send(.closeLeft)
    await backend.waitFor(.cancelled("save L"))
    backend.answer("save R", with: .failure(.offline))
    await store.receive {
      $0.right.isSaving = false
      $0.right.error = "offline"
    }
    await store.finish()
    #expect(backend.count(of: .cancelled("save R")) == 0)
  }
}
