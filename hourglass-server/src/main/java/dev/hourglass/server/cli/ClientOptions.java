package dev.hourglass.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The options every client command shares (a picocli mixin): which server, which token, how long to
 * wait, and whether to print the server's JSON or a human summary.
 */
public final class ClientOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(
      names = "--server",
      paramLabel = "URL",
      converter = ServerUrl.class,
      defaultValue = "${env:HOURGLASS_SERVER:-http://127.0.0.1:8080}",
      description =
          "Base URL of the Hourglass server (env HOURGLASS_SERVER; default: ${DEFAULT-VALUE}).")
  URI server;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      defaultValue = "${env:HOURGLASS_TOKEN}",
      description =
          "Bearer token, when the server has auth on (env HOURGLASS_TOKEN). Never printed.")
  String token;

  @Option(
      names = "--json",
      description = "Print the server's JSON answer as is, one document, for scripts.")
  boolean json;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "10s",
      description = "How long to wait to connect, and for each answer (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  /** A client for the chosen server. */
  ServerClient client() {
    return client(Duration.ZERO);
  }

  /**
   * A client that waits {@code --timeout} plus {@code longPoll} for each answer, for requests the
   * server may hold that long before answering (a claim's wait).
   */
  ServerClient client(Duration longPoll) {
    if (timeout.isZero()) {
      throw new ParameterException(command.commandLine(), "--timeout must be longer than 0");
    }
    return new ServerClient(
        server, token == null || token.isEmpty() ? null : token, timeout, timeout.plus(longPoll));
  }

  /** Where the command's results go. */
  PrintWriter out() {
    return command.commandLine().getOut();
  }

  boolean json() {
    return json;
  }

  /**
   * Prints an answer: with {@code --json} its body as is (nothing for a bodiless 204), otherwise
   * {@code human} applied to the body (a missing node when there is none).
   */
  void print(ServerResponse response, Function<JsonNode, String> human) {
    if (json) {
      if (response.hasBody()) {
        out().println(response.body().strip());
      }
    } else {
      out().println(human.apply(response.hasBody() ? response.json() : Json.MAPPER.missingNode()));
    }
    out().flush();
  }

  /** Reads {@code --server}: an absolute http or https URL, kept without a trailing slash. */
  static final class ServerUrl implements ITypeConverter<URI> {
    @Override
    public URI convert(String text) {
      URI uri;
      try {
        uri = new URI(text.strip().replaceAll("/+$", ""));
      } catch (URISyntaxException e) {
        throw invalid(text, e.getReason());
      }
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
        throw invalid(text, "the scheme must be http or https");
      }
      if (uri.getHost() == null || uri.getQuery() != null || uri.getFragment() != null) {
        throw invalid(text, "it needs a host and no query or fragment");
      }
      return uri;
    }

    private static TypeConversionException invalid(String text, String why) {
      return new TypeConversionException(
          "'" + text + "' is not a server URL like http://127.0.0.1:8080 (" + why + ")");
    }
  }
}
