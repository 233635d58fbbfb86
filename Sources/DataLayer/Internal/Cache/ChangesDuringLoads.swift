import DomainLayer
import LayeredSupport

/// The todos that creates and toggles answered while each list load was on its way, so that a
/// list the server read before them does not undo them.
///
/// One lock holds this ledger and every cache write made through it: an answer either reaches
/// the ledger before a load ends, and is laid over that load's list, or its own write comes
/// after the load's.
final class ChangesDuringLoads: Sendable {
  private struct Ledger {
    var nextLoad = 0
    var missed: [Int: [TodoChange]] = [:]
  }

  private let ledger = Locked(Ledger())

  /// Starts noting answers for a load; every load begun must end.
  func begin() -> Int {
    ledger.withLock { ledger in
      defer { ledger.nextLoad += 1 }
      ledger.missed[ledger.nextLoad] = []
      return ledger.nextLoad
    }
  }

  /// Ends `load` without a list: it failed.
  func end(_ load: Int) {
    ledger.withLock { _ = $0.missed.removeValue(forKey: load) }
  }

  /// Ends `load`, lays what it missed over `list`, and hands the result to `write` under the lock.
  func end(_ load: Int, with list: [Todo], write: ([Todo]) -> Void) -> [Todo] {
    ledger.withLock { ledger in
      let todos = list.applying(ledger.missed.removeValue(forKey: load) ?? [])
      write(todos)
      return todos
    }
  }

  /// Notes `change` for every load on its way, then runs `write` under the lock.
  func record(_ change: TodoChange, write: () -> Void) {
    ledger.withLock { ledger in
      for load in ledger.missed.keys { ledger.missed[load]?.append(change) }
      write()
    }
  }
}

/// A server's answer to a change of one todo.
enum TodoChange {
  /// A create's answer: the todo as it began, which anything else the list holds of it is newer than.
  case created(Todo)
  /// A toggle's answer: the todo as it is now.
  case changed(Todo)
}

extension [Todo] {
  /// The list with `changes` laid over it in order: a changed todo replaces its row or, when the
  /// list lacks it, joins the end; a created one joins the end unless the list already has it.
  func applying(_ changes: [TodoChange]) -> [Todo] {
    changes.reduce(into: self) { todos, change in
      switch change {
      case .created(let todo) where !todos.contains { $0.id == todo.id }:
        todos.append(todo)
      case .created:
        break
      case .changed(let todo):
        if let row = todos.firstIndex(where: { $0.id == todo.id }) {
          todos[row] = todo
        } else {
          todos.append(todo)
        }
      }
    }
  }
}
