import AppComposition
import DataLayer
import DomainLayer
import Foundation
import PresentationLayer
import SampleBackend
import Testing

/// The live graph's todo list, tapped at random against the in-process sample API: a refresh the
/// server answers while toggles and creates are on their way must not leave the screen showing
/// anything but the server's list once every tap's work has ended.
@Suite("The todo list over the sample API, tapped at random", .timeLimit(.minutes(1)))
@MainActor
struct TodoListAtRandomTests {
  @Test(
    "toggles, creates and refreshes tapped at random end with the screen showing the server's list",
    arguments: 0..<30)
  func screenEndsAsTheServerHasIt(seed: UInt64) async throws {
    var generator = Xorshift(seed: seed)
    let mount = SampleAPI().transport()
    let container = AppContainer(configuration: AppConfiguration(baseURL: mount.baseURL, transport: mount))
    _ = try await container.session.logIn(username: "demo", password: "correct-horse-battery-staple")
    let viewModel = container.makeTodoListViewModel()
    await viewModel.sendAndWait(.appeared)

    var taps: [Task<Void, Never>] = []
    for _ in 0..<25 {
      let ids = viewModel.state.todos.prefix(5).map(\.id)
      let action: TodoListFeature.Action =
        switch generator.next(below: 8) {
        case 0: .refresh
        case 1: .createTapped
        default: .toggle(id: ids[generator.next(below: ids.count)])
        }
      viewModel.send(.newTitleChanged("Milk \(generator.next(below: 100))"))
      taps.append(Task { await viewModel.sendAndWait(action) })
      try? await Task.sleep(for: .microseconds(generator.next(below: 300)))
    }
    for tap in taps { await tap.value }

    let server = try await RemoteTodoRepository(client: container.authenticatedClient).todos()
    #expect(viewModel.state.togglesInFlight.isEmpty)
    #expect(viewModel.state.todos == server, "seed \(seed)")
    viewModel.cancel()
  }
}

/// Marsaglia's xorshift: enough to vary the taps and pauses, the same for a seed everywhere.
private struct Xorshift {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
  }

  mutating func next(below bound: Int) -> Int {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return Int(state % UInt64(bound))
  }
}
