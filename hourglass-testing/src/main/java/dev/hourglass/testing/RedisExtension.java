package dev.hourglass.testing;

import dev.hourglass.embedded.RedisDeployment;
import dev.hourglass.embedded.RedisServer;
import java.util.Objects;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension that runs a real {@link RedisServer} for tests.
 *
 * <p>Register it on a static field to share one server across a test class: it starts before the
 * first test ({@code beforeAll}), is flushed ({@code FLUSHALL}) before every test, and is closed
 * after the last one ({@code afterAll}).
 *
 * <pre>{@code
 * class QueueTest {
 *   @RegisterExtension static RedisExtension redis = RedisExtension.standalone();
 *
 *   @Test
 *   void works(RedisServer server) {
 *     RedisClient client = RedisClient.create(redis.uri());
 *     ...
 *   }
 * }
 * }</pre>
 *
 * <p>Registered on a non-static field, it runs a fresh server per test instance: started in {@code
 * beforeEach} and closed in {@code afterEach} (per-method lifecycle), or per class with
 * {@code @TestInstance(PER_CLASS)}. Whichever callback started the server is the one whose matching
 * {@code after} callback closes it, so {@code @Nested} classes share the outer server.
 *
 * <p>Test and lifecycle methods may declare a {@link RedisServer} (or {@link RedisDeployment})
 * parameter to receive the server. Only one {@code RedisExtension} per test class can resolve such
 * parameters; with several, use the fields' {@link #server()} instead.
 *
 * <p>Threading: the callbacks are synchronised; the extension can be shared by tests running in
 * parallel, but they then share one server and its flushes.
 */
public final class RedisExtension
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        ParameterResolver {

  private final Supplier<RedisServer> factory;
  private final boolean flushBeforeEach;

  private RedisServer server; // guarded by this
  private String ownerId; // unique id of the extension context that started the server

  private RedisExtension(Supplier<RedisServer> factory, boolean flushBeforeEach) {
    this.factory = factory;
    this.flushBeforeEach = flushBeforeEach;
  }

  /**
   * An in-memory server ({@code --save "" --appendonly no}), flushed before each test.
   *
   * @return a new extension
   */
  public static RedisExtension standalone() {
    return new RedisExtension(RedisServer::create, true);
  }

  /**
   * A server writing an AOF with {@code appendfsync always}, flushed before each test.
   *
   * @return a new extension
   */
  public static RedisExtension persistent() {
    return new RedisExtension(() -> RedisServer.builder().persistent().build(), true);
  }

  /**
   * A server built by {@code factory} (called once per server start, must return a server that is
   * not started), flushed before each test.
   *
   * @param factory creates the server, e.g. {@code () -> RedisServer.builder().args(...).build()}
   * @return a new extension
   */
  public static RedisExtension of(Supplier<RedisServer> factory) {
    return new RedisExtension(Objects.requireNonNull(factory, "factory"), true);
  }

  /**
   * Returns a copy of this extension that does not flush before each test, so data written by one
   * test is visible to the next.
   *
   * @return a new extension
   */
  public RedisExtension withoutFlush() {
    return new RedisExtension(factory, false);
  }

  /**
   * Returns the running server.
   *
   * @return the server
   * @throws IllegalStateException outside the extension's lifecycle
   */
  public synchronized RedisServer server() {
    if (server == null) {
      throw new IllegalStateException("The Redis server is not started (outside its test scope)");
    }
    return server;
  }

  /**
   * Returns the running server's URI.
   *
   * @return {@code redis://127.0.0.1:<port>}
   * @throws IllegalStateException outside the extension's lifecycle
   */
  public String uri() {
    return server().uri();
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) {
    startIfNeeded(context);
  }

  @Override
  public synchronized void beforeEach(ExtensionContext context) {
    if (!startIfNeeded(context) && flushBeforeEach) {
      server.flushAll();
    }
  }

  @Override
  public synchronized void afterEach(ExtensionContext context) {
    closeIfOwner(context);
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    closeIfOwner(context);
  }

  @Override
  public boolean supportsParameter(
      ParameterContext parameterContext, ExtensionContext extensionContext) {
    Class<?> type = parameterContext.getParameter().getType();
    return type == RedisServer.class || type == RedisDeployment.class;
  }

  @Override
  public synchronized Object resolveParameter(
      ParameterContext parameterContext, ExtensionContext extensionContext) {
    if (server == null) {
      throw new ParameterResolutionException(
          "The Redis server is not started yet; declare the RedisExtension field static to inject"
              + " it into constructors or @BeforeAll methods");
    }
    return server;
  }

  /** Starts a server owned by {@code context} unless one runs; returns whether it started one. */
  private boolean startIfNeeded(ExtensionContext context) {
    if (server != null) {
      return false;
    }
    RedisServer created = factory.get();
    try {
      created.start();
    } catch (RuntimeException e) {
      try {
        created.close();
      } catch (RuntimeException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
    server = created;
    ownerId = context.getUniqueId();
    return true;
  }

  private void closeIfOwner(ExtensionContext context) {
    if (server != null && context.getUniqueId().equals(ownerId)) {
      RedisServer closing = server;
      server = null;
      ownerId = null;
      closing.close();
    }
  }
}
