/// A scheduler that delivers every value asynchronously, in order, from a
/// task of its own on the cooperative thread pool: the one made by
/// ``ValueObservationScheduler/task`` and
/// ``ValueObservationScheduler/task(priority:)``, the default of
/// ``ValueObservation/values(in:scheduling:bufferingPolicy:)``.
///
///     for try await players in observation.values(in: dbQueue, scheduling: .task(priority: .low)) {
///       print(players)
///     }
///
/// Each scheduler has one task, which runs its actions one at a time; it
/// ends once the scheduler is released and every scheduled action has run.
public final class TaskValueObservationScheduler: ValueObservationScheduler {
  private let actions: AsyncStream<@Sendable () -> Void>.Continuation

  init(priority: TaskPriority?) {
    let (stream, actions) = AsyncStream.makeStream(of: (@Sendable () -> Void).self)
    self.actions = actions
    // The task holds the stream, not the scheduler: releasing the scheduler
    // finishes the stream, and the task ends after the last action.
    Task(priority: priority) {
      for await action in stream { action() }
    }
  }

  deinit {
    actions.finish()
  }

  /// False: even the first value is delivered from the scheduler's task.
  public func immediateInitialValue() -> Bool { false }

  /// Runs `action` from the scheduler's task, after the actions scheduled
  /// before it.
  public func schedule(_ action: @escaping @Sendable () -> Void) {
    actions.yield(action)
  }
}

extension ValueObservationScheduler where Self == TaskValueObservationScheduler {
  /// Delivers every value asynchronously, in order, from a new task.
  ///
  ///     observation.start(in: dbQueue, scheduling: .task) { error in
  ///       print(error)
  ///     } onChange: { players in
  ///       print("fresh players: \(players)")
  ///     }
  public static var task: TaskValueObservationScheduler {
    TaskValueObservationScheduler(priority: nil)
  }

  /// Delivers every value asynchronously, in order, from a new task of
  /// the given priority.
  ///
  ///     for try await players in observation.values(in: dbQueue, scheduling: .task(priority: .high)) {
  ///       print(players)
  ///     }
  public static func task(priority: TaskPriority) -> TaskValueObservationScheduler {
    TaskValueObservationScheduler(priority: priority)
  }
}
