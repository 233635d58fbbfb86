/// The result of one piece of domain work: a value, or the reason there is none.
public typealias Outcome<Value: Sendable> = Result<Value, DomainError>

/// What every use case hands to the presentation layer: an ``OutcomeSequence`` whose failures
/// are ``DomainError``s.
///
/// Its elements are outcomes, not values, and it never throws: a failure is an element like
/// any other, so a consumer's `for await` loop cannot be ended by an error. That is the
/// property that keeps a screen's input working after any number of failed requests.
public typealias OutcomeStream<Value: Sendable> = OutcomeSequence<Value, DomainError>
