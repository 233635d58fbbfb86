import AppComposition
import DataLayer
import DomainLayer
import Foundation
import LayeredSupport
import LayeredTestSupport
import NetworkLayer
import SampleBackend
import Testing

/// The session driven at random against a backend that rotates refresh tokens and, as Auth0,
/// Okta and Supabase do, takes a rotated refresh token presented again for a stolen one: it
/// revokes every token of that sign-in. Loads, expiries, failed refreshes, sign-outs and sign-ins
/// overlap in any order, and each answer comes after a random pause.
@Suite(
  "A session under loads, expiries, failed refreshes and sign-outs in any order", .timeLimit(.minutes(1)))
struct SessionRaceTests {
  @Test(
    "no refresh token is presented after it was rotated, and after each sign-out nothing of that sign-in can be exchanged",
    arguments: 0..<60
  )
  func sessionSurvivesAnyOrder(seed: UInt64) async throws {
    let backend = FamilyBackend(seed: seed)
    let mount = InProcessTransport(backend)
    var configuration = AppConfiguration(baseURL: mount.baseURL, transport: mount)
    configuration.authContract = FamilyContract()
    let container = AppContainer(configuration: configuration)
    _ = try await container.session.logIn(username: "alice", password: "correct horse")
    let updates = container.session.sessionUpdates()
    let endedByLoops = Task {
      var ended = 0
      for await session in updates where session == .expired { ended += 1 }
      return ended
    }

    var tasks: [Task<Void, Never>] = []
    // Sign-outs and sign-ins go one after the other, as one person taps them; loads overlap them.
    var lastSwitch: Task<Void, Never>?
    for _ in 0..<40 {
      switch backend.random(below: 20) {
      case 0..<15:
        tasks.append(Task { _ = try? await container.authenticatedClient.send(FamilyBackend.me) })
      case 15, 16:
        backend.expireAccessTokens()
      case 17, 18:
        backend.failNextRefresh()
      default:
        let previous = lastSwitch
        let next = Task {
          await previous?.value
          await container.session.logOut()
          _ = try? await container.session.logIn(username: "alice", password: "correct horse")
        }
        lastSwitch = next
        tasks.append(next)
      }
      try await Task.sleep(for: .microseconds(backend.random(below: 300)))
    }
    for task in tasks { await task.value }

    endedByLoops.cancel()
    // A token used up by other requests as soon as it was renewed looks like a refresh loop, which
    // the refresh limit may have ended; such a session is forgotten, not signed out.
    let forgotten = await endedByLoops.value
    let seen = backend.seen()
    #expect(seen.reusedRefreshTokens == 0, "seed \(seed): a rotated refresh token was presented again")
    // Every other sign-in was signed out, and the sign-out revoked whatever its refreshes had
    // rotated to: the server would exchange nothing of it.
    #expect(
      seen.liveSignIns.count <= 1 + forgotten,
      "seed \(seed): sign-ins the server still honours: \(seen.liveSignIns), \(forgotten) ended as loops")
    // The session in use works, or, after a loop, a sign-in does.
    backend.stopFailingRefreshes()
    do {
      _ = try await container.authenticatedClient.send(FamilyBackend.me)
    } catch .excessiveRefresh {
      _ = try await container.session.logIn(username: "alice", password: "correct horse")
    }
    #expect(try await container.authenticatedClient.send(FamilyBackend.me) == FamilyBackend.Me(name: "alice"))
  }
}

/// A sign-in's tokens, in the shape of the backend's answers.
private struct FamilyTokens: Decodable, Sendable {
  var access: String
  var refresh: String
}

/// The backend's login contract: JSON in, an access and a refresh token out; the refresh token is
/// rotated by each refresh and revoked by the sign-out.
private struct FamilyContract: AuthContract {
  func logIn(username: String, password: String) -> Endpoint<IssuedTokens> {
    Endpoint<FamilyTokens>(
      method: .post, path: ["login"], body: .json(["username": username, "password": password])
    ).map { IssuedTokens(accessToken: $0.access, refreshToken: $0.refresh, expiry: .unknown) }
  }

  func refresh(_ tokens: AuthTokens) -> Endpoint<IssuedTokens> {
    Endpoint<FamilyTokens>(method: .post, path: ["refresh"], body: .json(["refresh": tokens.refreshToken]))
      .map { IssuedTokens(accessToken: $0.access, refreshToken: $0.refresh, expiry: .unknown) }
  }

  func logOut(_ tokens: AuthTokens) -> Endpoint<NoContent>? {
    Endpoint<NoContent>(method: .post, path: ["logout"], body: .json(["refresh": tokens.refreshToken]))
  }
}

/// Each sign-in is a family of tokens: a refresh rotates its refresh token, and presenting one
/// already rotated revokes the whole family. An access token signs one to four requests, or
/// fewer when the test expires it. Each answer is decided when the request arrives and sent after
/// a random number of yields.
private final class FamilyBackend: InProcessHandler {
  struct Me: Codable, Equatable, Sendable {
    var name: String
  }

  static let me = Endpoint<Me>(path: ["me"], requiresAuthentication: true)

  struct Seen {
    var reusedRefreshTokens = 0
    /// The sign-ins whose refresh token the server would still exchange.
    var liveSignIns: [Int] = []
  }

  private struct State {
    var generator: SplitMix64
    var signIns = 0
    /// The family of every access token that works, and how many more requests it may sign.
    var access: [String: (family: Int, uses: Int)] = [:]
    /// The one refresh token each live family would exchange.
    var liveRefresh: [Int: String] = [:]
    /// Every refresh token a refresh has rotated away, and its family.
    var rotated: [String: Int] = [:]
    var failNextRefresh = false
    var reusedRefreshTokens = 0
  }

  private let state: Locked<State>

  init(seed: UInt64) {
    state = Locked(State(generator: SplitMix64(seed: seed)))
  }

  func random(below bound: Int) -> Int {
    state.withLock { Int($0.generator.next() % UInt64(bound)) }
  }

  func expireAccessTokens() { state.withLock { $0.access.removeAll() } }

  func failNextRefresh() { state.withLock { $0.failNextRefresh = true } }

  func stopFailingRefreshes() { state.withLock { $0.failNextRefresh = false } }

  func seen() -> Seen {
    state.withLock {
      Seen(reusedRefreshTokens: $0.reusedRefreshTokens, liveSignIns: $0.liveRefresh.keys.sorted())
    }
  }

  func handle(_ request: InProcessRequest) async -> InProcessReply {
    let reply = state.withLock { state in Self.answer(request, in: &state) }
    for _ in 0..<random(below: 40) { await Task.yield() }
    return reply
  }

  private static func answer(_ request: InProcessRequest, in state: inout State) -> InProcessReply {
    let refresh = request.jsonFields["refresh"] ?? ""
    switch (request.method, request.percentEncodedPath) {
    case ("POST", "/login"):
      state.signIns += 1
      return issue(to: state.signIns, in: &state)
    case ("POST", "/refresh"):
      if state.failNextRefresh {
        state.failNextRefresh = false
        return .json(503, text: #"{"detail":"try again"}"#)
      }
      if let family = state.rotated[refresh] {
        state.reusedRefreshTokens += 1
        revoke(family, in: &state)
        return .json(401, text: #"{"detail":"refresh token reused"}"#)
      }
      guard let family = state.liveRefresh.first(where: { $0.value == refresh })?.key else {
        return .json(401, text: #"{"detail":"unknown refresh token"}"#)
      }
      state.rotated[refresh] = family
      return issue(to: family, in: &state)
    case ("POST", "/logout"):
      // A rotated token revokes nothing here, as with Simple JWT's blacklist: the one it was
      // rotated to stays live.
      if state.rotated[refresh] != nil { state.reusedRefreshTokens += 1 }
      if let family = state.liveRefresh.first(where: { $0.value == refresh })?.key {
        revoke(family, in: &state)
      }
      return .json(204, text: "")
    case ("GET", "/me"):
      guard let token = request.bearerToken, let access = state.access[token] else {
        return .json(401, text: #"{"detail":"token not valid"}"#)
      }
      state.access[token] = access.uses > 1 ? (access.family, access.uses - 1) : nil
      return .json(200, text: #"{"name":"alice"}"#)
    default:
      return .json(404, text: #"{"detail":"not found"}"#)
    }
  }

  private static func issue(to family: Int, in state: inout State) -> InProcessReply {
    let (access, refresh) = ("at-\(family)-\(UUID().uuidString)", "rt-\(family)-\(UUID().uuidString)")
    state.access[access] = (family, 1 + Int(state.generator.next() % 4))
    state.liveRefresh[family] = refresh
    return .json(200, text: #"{"access":"\#(access)","refresh":"\#(refresh)"}"#)
  }

  private static func revoke(_ family: Int, in state: inout State) {
    state.liveRefresh[family] = nil
    state.access = state.access.filter { $0.value.family != family }
  }
}
