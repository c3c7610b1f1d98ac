package dev.hourglass.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the {@code wrk} HTTP load tool (Debian: {@code apt-get install wrk}) as a child process: one
 * POST body sent over and over on {@code connections} keep-alive connections for {@code seconds},
 * and reads its report (requests/s and latency percentiles from {@code --latency}).
 */
final class Wrk {
  private Wrk() {}

  /** What one wrk run reported. */
  record Report(
      long requests,
      double requestsPerSecond,
      double p50Ms,
      double p75Ms,
      double p90Ms,
      double p99Ms,
      long non2xx,
      String socketErrors) {}

  static final String INSTALL_HINT =
      "the http-enqueue workload needs the wrk load tool on the PATH"
          + " (Debian/Ubuntu: apt-get install wrk)";

  /** POSTs {@code jsonBody} to {@code url} as {@code application/json}. */
  static Report post(String url, String jsonBody, int connections, int seconds)
      throws IOException, InterruptedException {
    Path script = Files.createTempFile("hourglass-bench-wrk", ".lua");
    try {
      Files.writeString(
          script,
          "wrk.method = \"POST\"\n"
              + "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
              + "wrk.body = [==["
              + jsonBody
              + "]==]\n",
          StandardCharsets.UTF_8);
      int threads = Math.min(2, connections);
      ProcessBuilder pb =
          new ProcessBuilder(
                  "wrk",
                  "-t" + threads,
                  "-c" + connections,
                  "-d" + seconds + "s",
                  "--latency",
                  "-s",
                  script.toString(),
                  url)
              .redirectErrorStream(true);
      Process wrk;
      try {
        wrk = pb.start();
      } catch (IOException e) {
        throw new IOException(INSTALL_HINT, e);
      }
      String out = new String(wrk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!wrk.waitFor(seconds + 60L, TimeUnit.SECONDS) || wrk.exitValue() != 0) {
        wrk.destroy();
        throw new IOException("wrk failed:\n" + out);
      }
      return parse(out);
    } finally {
      Files.deleteIfExists(script);
    }
  }

  static Report parse(String out) throws IOException {
    return new Report(
        (long) number(out, "(\\d+) requests in "),
        number(out, "Requests/sec:\\s+([\\d.]+)"),
        percentile(out, "50"),
        percentile(out, "75"),
        percentile(out, "90"),
        percentile(out, "99"),
        find(out, "Non-2xx or 3xx responses: (\\d+)") == null
            ? 0
            : Long.parseLong(find(out, "Non-2xx or 3xx responses: (\\d+)")),
        find(out, "Socket errors: ([^\\n]+)") == null
            ? "none"
            : find(out, "Socket errors: ([^\\n]+)").replaceAll("[\\s,]+", "_"));
  }

  /** A line of wrk's latency distribution, e.g. {@code 99% 24.57ms}, in ms. */
  private static double percentile(String out, String p) throws IOException {
    Matcher m = Pattern.compile("\\n\\s*" + p + "%\\s+([\\d.]+)(us|ms|s)").matcher(out);
    if (!m.find()) {
      throw new IOException("no " + p + "% latency in wrk's report:\n" + out);
    }
    double v = Double.parseDouble(m.group(1));
    return switch (m.group(2)) {
      case "us" -> v / 1000;
      case "s" -> v * 1000;
      default -> v;
    };
  }

  private static double number(String out, String regex) throws IOException {
    String v = find(out, regex);
    if (v == null) {
      throw new IOException("unexpected wrk report (no match for " + regex + "):\n" + out);
    }
    return Double.parseDouble(v);
  }

  private static String find(String out, String regex) {
    Matcher m = Pattern.compile(regex).matcher(out);
    return m.find() ? m.group(1) : null;
  }
}
