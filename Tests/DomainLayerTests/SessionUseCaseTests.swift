import DomainLayer
import LayeredSupport
import Testing

@Suite("Session use cases")
struct SessionUseCaseTests {
  final class FakeSessionRepository: SessionRepository {
    private let attempts = Locked<[String]>([])
    var logins: [String] { attempts.withLock { $0 } }

    func logIn(username: String, password: String) async throws(DomainError) -> User {
      attempts.withLock { $0.append(username) }
      guard password == "right" else { throw .invalidCredentials }
      return User(username: username)
    }

    func logOut() async {}
    func sessionUpdates() -> AsyncStream<Session> { AsyncStream { $0.finish() } }
  }

  @Test(
    "blank fields are refused without contacting the server",
    arguments: [("", "pw"), ("  ", "pw"), ("\n", "pw"), ("\t \r\n", "pw"), ("demo", "")]
  )
  func blankFields(username: String, password: String) async {
    let repository = FakeSessionRepository()
    let outcomes = await collect(LogIn(repository: repository)(username: username, password: password))
    guard case .failure(.invalidInput)? = outcomes.first else {
      Issue.record("expected invalid input, got \(outcomes)")
      return
    }
    #expect(repository.logins.isEmpty)
  }

  @Test("a refused login is invalid credentials, with a message a person can read")
  func refused() async {
    let outcomes = await collect(
      LogIn(repository: FakeSessionRepository())(username: "demo", password: "wrong"))
    #expect(outcomes == [.failure(.invalidCredentials)])
    #expect(DomainError.invalidCredentials.message == "The username or password is incorrect.")
  }

  @Test(
    "the username is trimmed of spaces and of a pasted line break; the password is sent exactly as typed",
    arguments: [" demo ", "demo\n", "\tdemo\r\n"]
  )
  func trimming(username: String) async {
    let repository = FakeSessionRepository()
    let outcomes = await collect(LogIn(repository: repository)(username: username, password: "right"))
    #expect(repository.logins == ["demo"])
    #expect(outcomes == [.success(User(username: "demo"))])
  }
}
