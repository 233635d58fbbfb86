import AppComposition
import DomainLayer
import Foundation
import LayeredTestSupport
import PresentationLayer
import Testing

@MainActor
@Suite("Directory storage", .timeLimit(.minutes(1)))
struct StorageFlushTests {
  @Test("after flushStorage, a sign-in is on disk, and a sign-out after it leaves no token file")
  func flushStorageMakesSessionChangesDurable() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("StorageFlushTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let tokenFile = directory.appendingPathComponent("tokens.json").path(percentEncoded: false)
    try await SampleBackendKind.embedded.with { connection in
      let container = AppContainer(
        configuration: AppConfiguration(
          baseURL: connection.baseURL, transport: connection.transport, storage: .directory(directory))
      )
      let login = container.makeLoginViewModel()
      login.send(.usernameChanged("demo"))
      login.send(.passwordChanged("correct-horse-battery-staple"))
      await login.sendAndWait(.logInTapped)

      await container.flushStorage()
      #expect(FileManager.default.fileExists(atPath: tokenFile))

      for await _ in container.logOut() {}
      await container.flushStorage()
      #expect(!FileManager.default.fileExists(atPath: tokenFile))
    }
  }
}
