package dev.hourglass.server.cli;

import java.lang.reflect.Constructor;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;

/**
 * Creates commands, mixins and option groups for picocli; a class whose public constructor takes a
 * {@link StandardInput} gets this one, every other class picocli's default way.
 */
public final class CommandFactory implements IFactory {
  private final StandardInput stdin;

  /**
   * A factory that gives commands this input.
   *
   * @param stdin the client's standard input
   */
  public CommandFactory(StandardInput stdin) {
    this.stdin = stdin;
  }

  @Override
  public <K> K create(Class<K> type) throws Exception {
    for (Constructor<?> constructor : type.getConstructors()) {
      Class<?>[] parameters = constructor.getParameterTypes();
      if (parameters.length == 1 && parameters[0] == StandardInput.class) {
        return type.cast(constructor.newInstance(stdin));
      }
    }
    return CommandLine.defaultFactory().create(type);
  }
}
