#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that is only read or changed while holding a lock.
///
/// It has the shape of `Synchronization.Mutex` (`withLock`, `sending` values) but is built on
/// `pthread_mutex_t`. On Linux, `Mutex` waits with raw futex calls that ThreadSanitizer cannot
/// see, so every access through it is reported as a race; a pthread mutex is intercepted by the
/// sanitizer, which keeps `swift test --sanitize=thread` meaningful.
///
/// Copies share one value and one lock, as references to one object would: the value and the
/// mutex live together in a single heap object, so making a lock costs one allocation, not two.
///
/// Every module of this package uses this one copy. It is `public`, unlike the rest of this
/// module, only so that `init` and `withLock` can be `@inlinable`: the other modules then run
/// them specialised for their own values, which the performance article shows pays. Apps still
/// never see it: no product contains this module, so no app can declare a dependency on it.
public struct Locked<Value>: @unchecked Sendable {
  // @unchecked: the value is only touched inside `withLock`, between lock and unlock.
  @usableFromInline let storage: LockedStorage<Value>
  /// The value's address in `storage`, which keeps it for its whole life.
  @usableFromInline let value: UnsafeMutablePointer<Value>
  /// The mutex's address in `storage`, untyped: the functions that take it are not generic, so
  /// no call needs the value's layout to find it.
  @usableFromInline let mutex: UnsafeMutableRawPointer

  /// Creates the lock, holding `value`.
  ///
  /// Inlinable, so that the storage's class is instantiated where `Value` is known: made here,
  /// unspecialised, every lock made would look `LockedStorage<Value>` up at run time.
  ///
  /// An autoclosure, evaluated once, before `init` returns: a value written at the call site
  /// (`Locked(State())`) is then built straight into the storage. Passed as a plain parameter,
  /// it was copied in, retaining everything it holds, and the original destroyed; for the
  /// transfer's state that was two outlined value-witness calls on every request.
  @inlinable
  public init(_ value: @autoclosure () -> sending Value) {
    let buffer = LockedStorage<Value>.create(minimumCapacity: mutexWordCount) { _ in value() }
    // `create` allocates an instance of the class it is called on, so this is that class.
    storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
    (self.value, mutex) = storage.withUnsafeMutablePointers { value, words in
      (value, UnsafeMutableRawPointer(words))
    }
    initializeMutex(mutex)
  }

  /// Runs `body` with exclusive access to the value. Not reentrant: calling `withLock` on the
  /// same instance from inside `body` deadlocks.
  @inlinable
  public func withLock<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    lockMutex(mutex)
    defer {
      unlockMutex(mutex)
      // The addresses point into `storage`, which must outlive their last use.
      withExtendedLifetime(storage) {}
    }
    // Through the value's address: the mutex already makes every access exclusive, and the
    // runtime's exclusivity check on a class property would add a look-up to every call.
    return try body(&value.pointee)
  }
}

/// The heap object behind ``Locked``: the value as the header, the mutex in the elements.
///
/// The elements are words, not a `pthread_mutex_t`, because the C type cannot appear in this
/// module's interface without every importing module loading the C library's module to compile,
/// which slows every clean build of the package; only this file's internal code
/// sees them as a mutex. Public only because ``Locked``'s inlinable code names it.
public final class LockedStorage<Value>: ManagedBuffer<Value, UInt64> {
  deinit {
    withUnsafeMutablePointerToElements { destroyMutex(UnsafeMutableRawPointer($0)) }
  }
}

// Calls, not inlined into `Locked`, for the reason the storage's elements are words.

/// How many of the storage's words hold a mutex.
@usableFromInline
let mutexWordCount: Int = {
  precondition(MemoryLayout<pthread_mutex_t>.alignment <= MemoryLayout<UInt64>.alignment)
  return (MemoryLayout<pthread_mutex_t>.size + MemoryLayout<UInt64>.size - 1) / MemoryLayout<UInt64>.size
}()

/// Initialises a mutex in the uninitialised words at `mutex`.
@usableFromInline
func initializeMutex(_ mutex: UnsafeMutableRawPointer) {
  let typed = mutex.bindMemory(to: pthread_mutex_t.self, capacity: 1)
  typed.initialize(to: pthread_mutex_t())
  _ = pthread_mutex_init(typed, nil)
}

/// Destroys the mutex at `mutex`, leaving the words uninitialised.
func destroyMutex(_ mutex: UnsafeMutableRawPointer) {
  let typed = mutex.assumingMemoryBound(to: pthread_mutex_t.self)
  _ = pthread_mutex_destroy(typed)
  typed.deinitialize(count: 1)
}

/// Locks the mutex at `mutex`.
@usableFromInline
func lockMutex(_ mutex: UnsafeMutableRawPointer) {
  _ = pthread_mutex_lock(mutex.assumingMemoryBound(to: pthread_mutex_t.self))
}

/// Unlocks the mutex at `mutex`.
@usableFromInline
func unlockMutex(_ mutex: UnsafeMutableRawPointer) {
  _ = pthread_mutex_unlock(mutex.assumingMemoryBound(to: pthread_mutex_t.self))
}
