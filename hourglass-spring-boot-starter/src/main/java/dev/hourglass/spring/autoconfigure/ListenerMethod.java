package dev.hourglass.spring.autoconfigure;

import dev.hourglass.Hourglass;
import dev.hourglass.Job;
import dev.hourglass.JobHandler;
import dev.hourglass.Queue;
import dev.hourglass.Worker;
import dev.hourglass.WorkerOptions;
import dev.hourglass.spring.HourglassPayloadMapper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import org.springframework.util.ReflectionUtils;

/**
 * One {@link dev.hourglass.spring.HourglassListener} method, its attributes resolved: which
 * argument gets the payload and which the {@link Job}, and the payload's type.
 */
final class ListenerMethod {
  private final Object bean;
  private final Method method;
  private final String queue;
  private final int concurrency;
  private final Type payloadType;
  private final int payloadIndex;
  private final int jobIndex;

  private ListenerMethod(
      Object bean,
      Method method,
      String queue,
      int concurrency,
      Type payloadType,
      int payloadIndex,
      int jobIndex) {
    this.bean = bean;
    this.method = method;
    this.queue = queue;
    this.concurrency = concurrency;
    this.payloadType = payloadType;
    this.payloadIndex = payloadIndex;
    this.jobIndex = jobIndex;
  }

  /**
   * Reads the method's parameters: at most one {@code Job<...>} and at most one payload, at least
   * one of the two.
   *
   * @param concurrency handler threads, or 0 for the configured default
   * @throws IllegalStateException naming the method when its parameters do not fit
   */
  static ListenerMethod of(Object bean, Method method, String queue, int concurrency) {
    Type[] types = method.getGenericParameterTypes();
    int payloadIndex = -1;
    int jobIndex = -1;
    for (int i = 0; i < types.length; i++) {
      boolean isJob = Job.class.isAssignableFrom(method.getParameterTypes()[i]);
      if (isJob ? jobIndex >= 0 : payloadIndex >= 0) {
        throw invalid(method, "it has more than one " + (isJob ? "Job" : "payload") + " parameter");
      }
      if (isJob) {
        jobIndex = i;
      } else {
        payloadIndex = i;
      }
    }
    if (types.length == 0) {
      throw invalid(method, "it takes no parameter; give it the payload, a Job<...>, or both");
    }
    Type jobType = jobIndex >= 0 ? jobPayloadType(types[jobIndex]) : null;
    if (payloadIndex >= 0 && jobType != null && !jobType.equals(types[payloadIndex])) {
      throw invalid(
          method,
          "its Job<"
              + jobType.getTypeName()
              + "> and its payload parameter ("
              + types[payloadIndex].getTypeName()
              + ") differ; use Job<?> or the same type");
    }
    Type payloadType =
        payloadIndex >= 0 ? types[payloadIndex] : jobType != null ? jobType : byte[].class;
    if (payloadType instanceof Class<?> c && c.isPrimitive()) {
      throw invalid(method, "its payload parameter is a primitive; use " + c.getName() + "'s box");
    }
    ReflectionUtils.makeAccessible(method);
    return new ListenerMethod(
        bean, method, queue, concurrency, payloadType, payloadIndex, jobIndex);
  }

  /**
   * The {@code T} of a {@code Job<T>} parameter (the bound of {@code Job<? extends T>}), or null
   * for a raw {@code Job} or {@code Job<?>}.
   */
  private static Type jobPayloadType(Type jobType) {
    if (jobType instanceof ParameterizedType p) {
      Type arg = p.getActualTypeArguments()[0];
      if (arg instanceof WildcardType w) {
        Type bound = w.getUpperBounds()[0];
        return bound == Object.class ? null : bound;
      }
      if (!(arg instanceof java.lang.reflect.TypeVariable)) {
        return arg;
      }
    }
    return null;
  }

  private static IllegalStateException invalid(Method method, String why) {
    return new IllegalStateException(
        "@HourglassListener method " + describe(method) + " cannot be used: " + why);
  }

  static String describe(Method method) {
    return method.getDeclaringClass().getName() + "." + method.getName();
  }

  String queue() {
    return queue;
  }

  /** Handler threads, or 0 for the configured default. */
  int concurrency() {
    return concurrency;
  }

  Type payloadType() {
    return payloadType;
  }

  String description() {
    return describe(method);
  }

  /** Starts a worker that calls this method for each job of the queue. */
  @SuppressWarnings("unchecked")
  Worker start(
      Hourglass hourglass,
      HourglassPayloadMapper mapper,
      WorkerOptions options,
      DeliveryObserver observer) {
    Queue<Object> q =
        payloadType instanceof Class<?> c
            ? hourglass.queue(queue, (Class<Object>) c)
            : hourglass.queue(queue, mapper.codecFor(payloadType));
    return q.worker(handler(observer), options);
  }

  private JobHandler<Object> handler(DeliveryObserver observer) {
    return job -> {
      observer.delivered(queue, job.dueAt());
      Object[] args = new Object[method.getParameterCount()];
      if (payloadIndex >= 0) {
        args[payloadIndex] = job.payload();
      }
      if (jobIndex >= 0) {
        args[jobIndex] = job;
      }
      invoke(args);
    };
  }

  private void invoke(Object[] args) throws Exception {
    try {
      method.invoke(bean, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot call " + description(), e);
    }
  }
}
