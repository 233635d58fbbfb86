import AppComposition
import Foundation
import LayeredSupport
import NetworkLayer
import PresentationLayer
import SampleBackend

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Everything one scenario needs: a fresh backend, the live app graph on top of it, control of
/// the backend, and the narration with its checks.
final class Stage: Sendable {
  let container: AppContainer
  let control: BackendControl
  let baseURL: URL
  let transport: any HTTPTransport
  /// Takes the embedded API off the network and back; `nil` against a real server.
  let setReachable: (@Sendable (Bool) -> Void)?
  private let failures = Locked<[String]>([])
  private let checks = Locked(0)

  init(baseURL: URL?) {
    let monitor = ConsoleEventMonitor(verbose: true, prefix: "      ")
    if let baseURL {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      let session = URLSession(configuration: configuration)
      transport = URLSessionTransport(session: session)
      self.baseURL = baseURL
      setReachable = nil
      control = BackendControl(baseURL: baseURL, session: session)
    } else {
      let embedded = SampleAPI().transport()
      transport = embedded
      self.baseURL = embedded.baseURL
      setReachable = { reachable in reachable ? embedded.reconnect() : embedded.disconnect() }
      control = BackendControl(transport: embedded)
    }
    container = AppContainer(
      configuration: AppConfiguration(baseURL: self.baseURL, transport: transport, monitors: [monitor])
    )
  }

  /// Signs in as the sample API's demo user through the login screen, as a person would.
  @MainActor
  func signIn() async {
    let login = container.makeLoginViewModel()
    login.send(.usernameChanged("demo"))
    login.send(.passwordChanged("correct-horse-battery-staple"))
    await login.sendAndWait(.logInTapped)
  }

  /// Starts a step: what is sent, and the layers it passes through.
  func step(_ action: String, through layers: String) {
    print("\n  ▶ \(action)")
    print("    path: \(layers)")
  }

  /// Prints a state or event line. A list shows each element as `print` would show it alone,
  /// without the type names an array's own description spells out.
  func show(_ label: String, _ value: Any) {
    if let list = value as? [Any] {
      print("    \(label): [\(list.map { String(describing: $0) }.joined(separator: ", "))]")
    } else {
      print("    \(label): \(value)")
    }
  }

  /// Records a check of described behaviour.
  func expect(_ condition: Bool, _ description: String) {
    checks.withLock { $0 += 1 }
    print("    \(condition ? "✓" : "✗ NOT AS DESCRIBED:") \(description)")
    if !condition { failures.withLock { $0.append(description) } }
  }

  /// Prints a line about something the stage could not do here.
  func note(_ text: String) {
    print("    note: \(text)")
  }

  var failedChecks: [String] { failures.withLock { $0 } }
  var checkCount: Int { checks.withLock { $0 } }
}
