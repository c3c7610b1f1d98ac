package dev.hourglass.spring.autoconfigure;

import dev.hourglass.spring.HourglassListener;
import dev.hourglass.spring.HourglassSchedule;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;

/**
 * Finds {@link HourglassListener} methods on beans as they are created and resolves their
 * attributes' {@code ${...}} placeholders; {@link HourglassListenerContainer} starts them. A bad
 * attribute fails the bean's creation, naming the method.
 */
public class HourglassListenerBeanPostProcessor implements BeanPostProcessor {
  private final Environment environment;
  private final List<ListenerMethod> found = new ArrayList<>();
  private final List<ScheduleDeclaration> schedules = new ArrayList<>();
  private boolean closed; // guarded by this

  /**
   * A post-processor resolving placeholders from this environment; the starter registers it.
   *
   * @param environment where {@code ${...}} placeholders are resolved
   */
  public HourglassListenerBeanPostProcessor(Environment environment) {
    this.environment = environment;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> type = AopUtils.getTargetClass(bean);
    Map<Method, HourglassListener> methods =
        MethodIntrospector.selectMethods(
            type,
            (MethodIntrospector.MetadataLookup<HourglassListener>)
                m -> AnnotatedElementUtils.findMergedAnnotation(m, HourglassListener.class));
    if (methods.isEmpty()) {
      return bean;
    }
    List<ListenerMethod> listeners = new ArrayList<>();
    List<ScheduleDeclaration> declared = new ArrayList<>();
    methods.forEach(
        (method, annotation) -> {
          Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
          String queue = resolve(method, "queue", annotation.queue());
          listeners.add(
              ListenerMethod.of(
                  bean, invocable, queue, concurrency(method, annotation.concurrency())));
          HourglassSchedule schedule =
              AnnotatedElementUtils.findMergedAnnotation(method, HourglassSchedule.class);
          if (schedule != null) {
            declared.add(
                ScheduleDeclaration.of(
                    queue,
                    ListenerMethod.describe(method),
                    resolve(method, "id", schedule.id()),
                    resolve(method, "cron", schedule.cron()),
                    resolve(method, "zone", schedule.zone()),
                    resolve(method, "every", schedule.every()),
                    resolve(method, "payload", schedule.payload())));
          }
        });
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException(
            "Bean '"
                + beanName
                + "' has @HourglassListener methods but was created after the listeners started"
                + " (a lazy or prototype bean?); make it an eager singleton");
      }
      found.addAll(listeners);
      schedules.addAll(declared);
    }
    return bean;
  }

  /** The schedules declared beside the listener methods found so far. */
  synchronized List<ScheduleDeclaration> schedules() {
    return List.copyOf(schedules);
  }

  /** The listener methods found so far; none may be added afterwards. */
  synchronized List<ListenerMethod> takeListeners() {
    closed = true;
    return List.copyOf(found);
  }

  private String resolve(Method method, String attribute, String value) {
    String resolved;
    try {
      resolved = environment.resolveRequiredPlaceholders(value).strip();
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "@HourglassListener method "
              + ListenerMethod.describe(method)
              + ": "
              + attribute
              + " \""
              + value
              + "\": "
              + e.getMessage(),
          e);
    }
    if (resolved.isEmpty() && attribute.equals("queue")) {
      throw new IllegalStateException(
          "@HourglassListener method "
              + ListenerMethod.describe(method)
              + ": queue \""
              + value
              + "\" is empty");
    }
    return resolved;
  }

  private int concurrency(Method method, String value) {
    String resolved = resolve(method, "concurrency", value);
    if (resolved.isEmpty()) {
      return 0;
    }
    if (resolved.matches("[0-9]{1,9}") && Integer.parseInt(resolved) >= 1) {
      return Integer.parseInt(resolved);
    }
    throw new IllegalStateException(
        "@HourglassListener method "
            + ListenerMethod.describe(method)
            + ": concurrency \""
            + value
            + "\" is \""
            + resolved
            + "\", not a whole number of at least 1");
  }
}
