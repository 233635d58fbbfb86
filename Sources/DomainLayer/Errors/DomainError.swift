/// Everything that can go wrong, phrased the way a screen needs it.
///
/// Each case says what a person can be told (``message``) and whether trying again can help
/// (``isRetryable``). The data layer translates lower errors into these cases exactly once, so
/// nothing above it sees a transport detail. The cases carry no credentials.
public enum DomainError: Error, Sendable, Hashable {
  /// The username or password was not accepted; `serverMessage` is the server's own sentence,
  /// when it gave one and the login contract reads it (see ``serverMessage``).
  case invalidCredentials(serverMessage: String?)
  /// What the user entered cannot be used; `message` says why, in words for them. Nothing was sent.
  case invalidInput(message: String)
  /// The server would not take what was sent, and said why: its sentence for the whole form, if
  /// any, and its complaints about each field, keyed by the domain's name for it, else the server's.
  case rejected(message: String?, fieldErrors: [String: [String]])
  /// The device could not reach the server at all.
  case offline
  /// The server did not answer in time.
  case timeout
  /// The thing asked for does not exist (any more).
  case notFound
  /// The user is signed in but may not do this (the server's 403); asking again will not help.
  /// `serverMessage` is the server's own sentence, when its body had one.
  case forbidden(serverMessage: String?)
  /// The server failed, or asked to be called less often (429); `status` is its HTTP status, if any.
  case server(status: Int?)
  /// The server answered with something that is not a valid value; `reason` is for developers.
  case invalidData(reason: String)
  /// The user's session has ended (it expired and could not be renewed); they must sign in again.
  case sessionExpired
  /// The work was cancelled because nobody is waiting for it any more.
  case cancelled
  /// Anything the cases above do not describe. `reason` is for developers.
  case unexpected(reason: String)

  /// A sentence that can be shown to a person as it is.
  public var message: String {
    switch self {
    case .invalidCredentials:
      "The username or password is incorrect."
    case .invalidInput(let message):
      message
    case .rejected(let message, let fieldErrors):
      message ?? (fieldErrors.isEmpty ? "The server could not accept that." : "Some fields need attention.")
    case .offline:
      "You appear to be offline. Check your connection and try again."
    case .timeout:
      "The server took too long to answer. Please try again."
    case .notFound:
      "That item could not be found. It may have been removed."
    case .forbidden:
      "You are not allowed to do that."
    case .server(429?):
      "Too many requests just now. Please wait a moment and try again."
    case .server:
      "The server had a problem. Please try again in a moment."
    case .invalidData:
      "The server sent something this app could not read."
    case .sessionExpired:
      "Your session has ended. Please sign in again."
    case .cancelled:
      "The request was cancelled."
    case .unexpected:
      "Something went wrong. Please try again."
    }
  }

  /// Whether repeating the same action unchanged has a reasonable chance to succeed.
  public var isRetryable: Bool {
    switch self {
    case .offline, .timeout, .server, .unexpected: true
    case .invalidCredentials, .invalidInput, .rejected, .notFound, .forbidden, .invalidData, .sessionExpired,
      .cancelled:
      false
    }
  }
}

extension DomainError {
  /// The username or password was not accepted, without a sentence from the server.
  public static var invalidCredentials: DomainError { .invalidCredentials(serverMessage: nil) }

  /// The user may not do this, without a sentence from the server.
  public static var forbidden: DomainError { .forbidden(serverMessage: nil) }

  /// What the server said in its own words, for an app that chooses to show it instead of
  /// ``message``: the sentence of a refused login, a 403 or a rejected form, if it gave one.
  public var serverMessage: String? {
    switch self {
    case .invalidCredentials(let sentence), .forbidden(let sentence), .rejected(let sentence, _): sentence
    default: nil
    }
  }

  /// What the server said is wrong with each field, by the field's name; empty unless the
  /// error is ``rejected(message:fieldErrors:)``.
  public var fieldErrors: [String: [String]] {
    if case .rejected(_, let fieldErrors) = self { fieldErrors } else { [:] }
  }
}
