package dev.hourglass.server;

import dev.hourglass.RedisVersionException;
import dev.hourglass.server.config.ConfigException;
import dev.hourglass.server.config.ConfigLoader;
import dev.hourglass.server.config.ServerConfig;
import dev.hourglass.server.config.Setting;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hourglass server}: runs the service until SIGTERM (or Ctrl+C), then shuts down gracefully.
 * Its options are generated from {@link Setting}, so the flags, the environment variables, the YAML
 * keys and this help cannot drift apart.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the Hourglass server: the HTTP API (API.md), push delivery, /metrics and the dashboard.",
      "With no --redis it starts an embedded Redis with AOF persistence (appendfsync always) in"
          + " --data-dir; stopping and starting again keeps every job.",
      "",
      "Each setting comes from its flag, else its environment variable, else the YAML file"
          + " (--config), else its default.",
      ""
    },
    footer = {
      "",
      "Exit codes: 0 stopped cleanly, 1 could not start (e.g. --data-dir in use by another"
          + " server), 2 bad configuration.",
      "Example: hourglass server --port 8080 --data-dir ./data"
    })
public final class ServerCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(ServerCommand.class);
  static final String CONFIG_ENV = "HOURGLASS_CONFIG";

  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "YAML file with settings (same keys as the flags) and the tokens list. Env: "
              + CONFIG_ENV
              + ".")
  Path configFile;

  /** Adds one option per {@link Setting} to the {@code server} subcommand. */
  static void addSettingOptions(CommandLine server) {
    CommandSpec spec = server.getCommandSpec();
    for (Setting s : Setting.values()) {
      OptionSpec.Builder option =
          OptionSpec.builder(s.flag())
              .paramLabel(s.key().toUpperCase(java.util.Locale.ROOT).replace('-', '_'))
              .type(String.class)
              .description(
                  s.help()
                      + " Env: "
                      + s.env()
                      + "."
                      + (s.defaultValue() == null ? "" : " Default: " + s.defaultValue() + "."));
      if (s == Setting.ALLOW_UNAUTHENTICATED) {
        option.arity("0..1").fallbackValue("true");
      }
      spec.addOption(option.build());
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    ServerConfig config;
    try {
      config = ConfigLoader.load(flags(), System.getenv(), yamlFile());
    } catch (ConfigException e) {
      spec.commandLine().getErr().println("hourglass server: " + e.getMessage());
      return 2;
    }
    LogSetup.apply(config.logFormat(), config.logLevel());
    HourglassServer server;
    try {
      server = HourglassServer.start(config);
    } catch (DataDirLock.DataDirLockedException | RedisVersionException e) {
      log.error("Hourglass could not start: {}", e.getMessage());
      spec.commandLine().getErr().println("hourglass server: could not start: " + e.getMessage());
      return 1;
    } catch (RuntimeException e) {
      log.error("Hourglass could not start: {}", e.getMessage(), e);
      spec.commandLine().getErr().println("hourglass server: could not start: " + e.getMessage());
      return 1;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  stopped.countDown();
                },
                "hourglass-shutdown"));
    stopped.await();
    return 0;
  }

  private Map<String, String> flags() {
    Map<String, String> flags = new HashMap<>();
    for (Setting s : Setting.values()) {
      String v = spec.findOption(s.flag()).getValue();
      if (v != null) {
        flags.put(s.key(), v);
      }
    }
    return flags;
  }

  private Path yamlFile() {
    if (configFile != null) {
      return configFile;
    }
    String env = System.getenv(CONFIG_ENV);
    return env == null || env.isBlank() ? null : Path.of(env);
  }
}
