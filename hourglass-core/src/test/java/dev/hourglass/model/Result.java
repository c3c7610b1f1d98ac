package dev.hourglass.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.JobException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a call returned, or the exception it threw: captured so that the model can judge it after
 * the fact, once per possible state.
 */
record Result<T>(T value, RuntimeException error) {

  static <T> Result<T> of(Supplier<T> call) {
    try {
      return new Result<>(call.get(), null);
    } catch (RuntimeException e) {
      return new Result<>(null, e);
    }
  }

  static Result<Void> ofVoid(Runnable call) {
    return of(
        () -> {
          call.run();
          return null;
        });
  }

  static <T> Result<T> ok(T value) {
    return new Result<>(value, null);
  }

  boolean failed() {
    return error != null;
  }

  /** The value; an {@link AssertionError} naming {@code what} when the call threw instead. */
  T get(String what) {
    if (error != null) {
      throw new AssertionError(what + " should succeed but threw " + error, error);
    }
    return value;
  }

  /** Asserts the call threw a {@code type} about job {@code id} of the run's queue. */
  <E extends JobException> void fails(
      Class<E> type, Run run, String id, String what, Consumer<E> more) {
    if (error == null) {
      throw new AssertionError(
          what + " should throw " + type.getSimpleName() + " but returned " + value);
    }
    assertThat(error).as(what).isInstanceOf(type);
    E e = type.cast(error);
    assertThat(e.id()).as("id in %s", type.getSimpleName()).isEqualTo(id);
    assertThat(e.queue()).as("queue in %s", type.getSimpleName()).isEqualTo(run.queueName);
    more.accept(e);
  }

  <E extends JobException> void fails(Class<E> type, Run run, String id, String what) {
    fails(type, run, id, what, e -> {});
  }

  @Override
  public String toString() {
    if (error != null) {
      return error.getClass().getSimpleName();
    }
    return String.valueOf(value);
  }
}
