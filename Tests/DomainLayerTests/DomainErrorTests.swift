import DomainLayer
import Foundation
import Testing

@Suite("DomainError")
struct DomainErrorTests {
  static let all: [DomainError] = [
    .offline, .timeout, .notFound, .forbidden, .server(status: 503), .server(status: nil),
    .server(status: 429),
    .invalidData(reason: "todo 1: title is blank"), .cancelled, .unexpected(reason: "HTTP status 418"),
    .rejected(message: nil, fieldErrors: ["title": ["This field may not be blank."]]),
    .rejected(message: nil, fieldErrors: [:]),
  ]

  @Test("every case has a sentence a person can read, free of developer detail", arguments: all)
  func messages(error: DomainError) {
    #expect(error.message.hasSuffix("."))
    #expect(!error.message.contains("todo 1"))
    #expect(!error.message.contains("418"))
  }

  @Test("an error's localized description is its message, through any Error", arguments: all)
  func localizedDescription(error: DomainError) {
    let anyError: any Error = error
    #expect(anyError.localizedDescription == error.message)
  }

  @Test("only failures that can pass by themselves are retryable")
  func retryability() {
    #expect(DomainError.offline.isRetryable)
    #expect(DomainError.timeout.isRetryable)
    #expect(DomainError.server(status: 500).isRetryable)
    #expect(!DomainError.notFound.isRetryable)
    #expect(!DomainError.forbidden.isRetryable)
    #expect(!DomainError.invalidData(reason: "").isRetryable)
    #expect(!DomainError.cancelled.isRetryable)
    #expect(!DomainError.rejected(message: "Check the form.", fieldErrors: [:]).isRetryable)
  }

  @Test("too many requests asks the person to wait, and blames no server problem")
  func tooManyRequests() {
    let message = DomainError.server(status: 429).message
    #expect(message.contains("wait") && !message.contains("problem"), "\(message)")
    #expect(DomainError.server(status: 429).isRetryable)
  }

  @Test("a rejection shows the server's sentence when it gave one, and keeps each field's complaints")
  func rejection() {
    let rejected = DomainError.rejected(message: "Check the form.", fieldErrors: ["title": ["Too long."]])
    #expect(rejected.message == "Check the form.")
    #expect(rejected.fieldErrors == ["title": ["Too long."]])
    #expect(DomainError.offline.fieldErrors.isEmpty)
  }
}
