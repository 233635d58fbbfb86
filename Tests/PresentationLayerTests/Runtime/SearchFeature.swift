import PresentationLayer

/// A toy search screen with a sign-in button and a list of saved searches: one lane per
/// in-flight policy, on top of a ``ScriptedBackend``.
///
/// - typing searches, latest wins (lane `search`);
/// - signing in drops taps while a login is in flight (lane `login`);
/// - saves are queued, and `discardSaves` cancels them (lane `save`);
/// - prefetches run side by side (lane `prefetch`);
/// - `load` runs under any policy the test picks (lane `load`);
/// - `probe` waits for its answer, then reports the state it reads (lane `probe`);
/// - refreshing a row, latest wins, in a lane of that row's own (lane `row`, whose values are too
///   large to be stored inline in an existential);
/// - a message shows for two seconds of the view model's clock (lane `flash`).
struct SearchFeature: Feature {
  indirect enum Action: Sendable {
    case typed(String)
    case logIn
    case save(String)
    case discardSaves
    case prefetch(String)
    case load(String, InFlightPolicy<Lane>)
    case probe(String)
    case refreshRow(id: String, section: String, attempt: Int)
    case flash(String)
    /// Both actions' plans as one.
    case both(Action, Action)
  }

  enum SideEffect: Sendable {
    case queryChanged(String)
    case searchStarted
    case searchFinished(ScriptedBackend.Answer)
    case logInTapped
    case logInFinished(ScriptedBackend.Answer)
    case saveQueued(String)
    case saveFinished(String, ScriptedBackend.Answer)
    case savesDiscarded
    case prefetched(String)
    case loadStarted
    case loadFinished(ScriptedBackend.Answer)
    case rowRefreshed(String)
    case messageShown(String?)
  }

  enum Load: Sendable, Equatable {
    case idle
    case loading
    case loaded([String])
    case failed(String)
  }

  struct State: Sendable, Equatable {
    var query = ""
    var isSearching = false
    var results: [String] = []
    var logInTaps = 0
    var isSignedIn = false
    var pendingSaves: [String] = []
    var saved: [String] = []
    var prefetched: Set<String> = []
    var load = Load.idle
    var message: String?
    var refreshedRows: Set<String> = []
  }

  enum Event: Sendable, Equatable {
    case searched(String)
  }

  enum Lane: Sendable, Hashable {
    case search
    case login
    case save
    case prefetch
    case load
    case probe
    case row(id: String, section: String)
    case flash
  }

  let backend: ScriptedBackend
  /// Makes searches wait for their answer even once cancelled, like work that never checks.
  var searchesIgnoreCancellation = false

  func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    let backend = self.backend
    switch action {
    case .typed(let query):
      let honouring = !searchesIgnoreCancellation
      return .run(.latest(.search), immediate: [.queryChanged(query)]) { effects in
        await effects.apply(.searchStarted)
        let answer = await backend.respond(to: "search \(query)", honouringCancellation: honouring)
        await effects.apply(.searchFinished(answer))
        await effects.emit(.searched(query))
        backend.note(.returned("search \(query)"))
      }
    case .logIn:
      return .run(.dropWhileBusy(.login), immediate: [.logInTapped]) { effects in
        let answer = await backend.respond(to: "login")
        await effects.apply(.logInFinished(answer))
        backend.note(.returned("login"))
      }
    case .save(let item):
      return .run(.queue(.save), immediate: [.saveQueued(item)]) { effects in
        let answer = await backend.respond(to: "save \(item)")
        await effects.apply(.saveFinished(item, answer))
        backend.note(.returned("save \(item)"))
      }
    case .discardSaves:
      return .run(.latest(.save), immediate: [.savesDiscarded]) { _ in }
    case .prefetch(let item):
      return .run(.merge(.prefetch)) { effects in
        if case .success = await backend.respond(to: "prefetch \(item)") {
          await effects.apply(.prefetched(item))
        }
        backend.note(.returned("prefetch \(item)"))
      }
    case .load(let request, let policy):
      return .run(policy, immediate: [.loadStarted]) { effects in
        let answer = await backend.respond(to: request)
        await effects.apply(.loadFinished(answer))
        backend.note(.returned(request))
      }
    case .probe(let request):
      return .run(.merge(.probe)) { effects in
        _ = await backend.respond(to: request)
        let query = await effects.state?.query
        backend.note(.observed(request, query: query))
      }
    case .refreshRow(let id, let section, let attempt):
      let request = "refresh \(section)/\(id) \(attempt)"
      return .run(.latest(.row(id: id, section: section))) { effects in
        if case .success = await backend.respond(to: request) {
          await effects.apply(.rowRefreshed("\(section)/\(id) \(attempt)"))
        }
        backend.note(.returned(request))
      }
    case .flash(let message):
      return .run(.latest(.flash), immediate: [.messageShown(message)]) { effects in
        guard (try? await effects.sleep(for: .seconds(2))) != nil else { return }
        await effects.apply(.messageShown(nil))
      }
    case .both(let first, let second):
      return plan(for: first, in: state).alongside(plan(for: second, in: state))
    }
  }

  static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .queryChanged(let query):
      state.query = query
    case .searchStarted:
      state.isSearching = true
    case .searchFinished(let answer):
      state.isSearching = false
      switch answer {
      case .success(let results): state.results = results
      case .failure(let failure): state.message = failure.message
      }
    case .logInTapped:
      state.logInTaps += 1
    case .logInFinished(let answer):
      state.isSignedIn = (try? answer.get()) != nil
    case .saveQueued(let item):
      state.pendingSaves.append(item)
    case .saveFinished(let item, let answer):
      state.pendingSaves.removeAll { $0 == item }
      if case .success = answer { state.saved.append(item) }
    case .savesDiscarded:
      state.pendingSaves.removeAll()
    case .prefetched(let item):
      state.prefetched.insert(item)
    case .loadStarted:
      state.load = .loading
    case .loadFinished(.success(let values)):
      state.load = .loaded(values)
    case .loadFinished(.failure(let failure)):
      state.load = .failed(failure.message)
    case .rowRefreshed(let row):
      state.refreshedRows.insert(row)
    case .messageShown(let message):
      state.message = message
    }
  }
}

extension ViewModel where F == SearchFeature {
  /// A search screen on `backend`, with nothing typed yet.
  nonisolated convenience init(backend: ScriptedBackend, searchesIgnoreCancellation: Bool = false) {
    self.init(
      SearchFeature(backend: backend, searchesIgnoreCancellation: searchesIgnoreCancellation),
      initialState: SearchFeature.State()
    )
  }
}
