public import DomainLayer

/// The sign-in screen: two fields and a button.
///
/// - The button is enabled only when both fields hold something and no login is in flight.
/// - Tapping it while a login is in flight does nothing (drop-while-busy): a double tap never
///   sends two logins.
/// - A failure shows a message a person can read and keeps both fields as typed.
/// - Success emits ``Event/loggedIn(_:)`` once, for navigation.
public struct LoginFeature: Feature {
  /// What the user does on the sign-in screen.
  public enum Action: Sendable, Hashable {
    /// The user edited the username field; carries the whole text.
    case usernameChanged(String)
    /// The user edited the password field; carries the whole text.
    case passwordChanged(String)
    /// The user tapped the button; ignored unless ``State/isLoginEnabled``.
    case logInTapped
  }

  /// What changes the sign-in form.
  public enum SideEffect: Sendable, Hashable {
    /// The username field now holds this text.
    case usernameChanged(String)
    /// The password field now holds this text.
    case passwordChanged(String)
    /// A login went out: the button is disabled and the last error is cleared.
    case loginStarted
    /// The login succeeded: the password is forgotten.
    case loginSucceeded
    /// The login failed: `message` says why, in words for the user, and both fields are kept.
    case loginFailed(message: String, serverMessage: String?)
  }

  /// What the sign-in screen shows.
  public struct State: Sendable, Hashable {
    /// The username as typed.
    public var username = ""
    /// The password as typed; forgotten after a successful login, and never printed or dumped.
    public var password = ""
    /// Whether a login is in flight; while it is, the button is disabled and taps do nothing.
    public var isLoggingIn = false
    /// Why the last attempt failed, in words for the user; `nil` when there is nothing to say.
    public var errorMessage: String?
    /// The server's own sentence for the last failure, if it gave one: an app that prefers its
    /// backend's words shows it in place of ``errorMessage``. A refusal with only field errors
    /// gives their messages, since this form has no place for each field's.
    public var serverMessage: String?

    /// Creates the empty form.
    public init() {}

    /// Whether the button can be tapped.
    public var isLoginEnabled: Bool {
      !isLoggingIn && username.contains(where: { !$0.isWhitespace }) && !password.isEmpty
    }
  }

  /// The sign-in screen's one-shot outputs.
  public enum Event: Sendable, Hashable {
    /// Signed in: move on to the app.
    case loggedIn(User)
  }

  /// The one lane of this screen's work.
  public enum Lane: Sendable, Hashable {
    /// The login request; a tap while one is in flight is dropped.
    case login
  }

  private let logIn: any LogInUseCase

  /// Creates the feature on top of the login use case.
  public init(logIn: any LogInUseCase) {
    self.logIn = logIn
  }

  /// Applies field edits at once, and starts a login for a tap unless the button is disabled or
  /// a login is already in flight.
  public func plan(for action: Action, in state: State) -> ActionPlan<Self> {
    switch action {
    case .usernameChanged(let username):
      return .immediate(.usernameChanged(username))
    case .passwordChanged(let password):
      return .immediate(.passwordChanged(password))
    case .logInTapped:
      guard state.isLoginEnabled else { return .none }
      let (logIn, username, password) = (self.logIn, state.username, state.password)
      return .run(.dropWhileBusy(.login), immediate: [.loginStarted]) { effects in
        await effects.follow(
          logIn(username: username, password: password),
          onValue: { .apply(.loginSucceeded, emitting: .loggedIn($0)) },
          onFailure: { .apply(.loginFailed(message: $0.message, serverMessage: Self.serverWords($0))) }
        )
      }
    }
  }

  /// The server's sentence, else its field errors' messages in the fields' order.
  private static func serverWords(_ error: DomainError) -> String? {
    let fieldMessages = error.fieldErrors.sorted { $0.key < $1.key }.flatMap(\.value)
    return error.serverMessage ?? (fieldMessages.isEmpty ? nil : fieldMessages.joined(separator: " "))
  }

  /// Folds one side effect into the form.
  public static func reduce(_ state: inout State, _ effect: SideEffect) {
    switch effect {
    case .usernameChanged(let username):
      state.username = username
    case .passwordChanged(let password):
      state.password = password
    case .loginStarted:
      state.isLoggingIn = true
      state.errorMessage = nil
      state.serverMessage = nil
    case .loginSucceeded:
      state.isLoggingIn = false
      state.password = ""
    case .loginFailed(let message, let serverMessage):
      state.isLoggingIn = false
      state.errorMessage = message
      state.serverMessage = serverMessage
    }
  }
}

extension LoginFeature.State: CustomStringConvertible {
  /// Shows how long the password is, never what it is, and texts escaped: states end up in logs.
  public var description: String {
    let error = errorMessage.map { ", error: \($0.quoted)" } ?? ""
    return "Login(username: \(username.quoted), password: \(password.count) characters, "
      + "loggingIn: \(isLoggingIn), buttonEnabled: \(isLoginEnabled)\(error))"
  }
}

extension LoginFeature.State: CustomReflectable {
  /// What `dump` and `Mirror` show: the password's length, never the password, since debuggers,
  /// crash reporters and test failures print states this way.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "username": username,
        "password": "\(password.count) characters",
        "isLoggingIn": isLoggingIn,
        "errorMessage": errorMessage as Any,
      ],
      displayStyle: .struct
    )
  }
}

extension LoginFeature.SideEffect: CustomStringConvertible {
  /// Never prints the password.
  public var description: String {
    switch self {
    case .usernameChanged(let username): "usernameChanged(\(username.quoted))"
    case .passwordChanged(let password): "passwordChanged(\(password.count) characters)"
    case .loginStarted: "loginStarted"
    case .loginSucceeded: "loginSucceeded"
    case .loginFailed(let message, _): "loginFailed(\(message.quoted))"
    }
  }
}

extension LoginFeature.Action: CustomStringConvertible {
  /// Never prints the password.
  public var description: String {
    switch self {
    case .usernameChanged(let username): "usernameChanged(\(username.quoted))"
    case .passwordChanged(let password): "passwordChanged(\(password.count) characters)"
    case .logInTapped: "logInTapped"
    }
  }
}

/// The sign-in screen's view model.
public typealias LoginViewModel = ViewModel<LoginFeature>

extension ViewModel where F == LoginFeature {
  /// Creates the view model with an empty form.
  public nonisolated convenience init(logIn: any LogInUseCase) {
    self.init(LoginFeature(logIn: logIn), initialState: LoginFeature.State())
  }
}
