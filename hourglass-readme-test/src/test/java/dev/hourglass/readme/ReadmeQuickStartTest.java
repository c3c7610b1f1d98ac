package dev.hourglass.readme;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hourglass.testing.ReadmeBlocks;
import dev.hourglass.testing.RedisExtension;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's "Quick start (Java)" as a user meets it: a fresh Maven project, outside the reactor,
 * whose dependencies are the README's {@code xml} block and whose only source is its {@code java}
 * block, both as printed, built by the Maven wrapper against this build's artifacts (installed into
 * {@code target/it-repo} by the invoker plugin, as {@code ./mvnw install} installs them into {@code
 * ~/.m2}) and run on a real Redis.
 *
 * <p>The wrapper runs offline with {@code target/it-repo} as its local repository and the build's
 * own local repository as a read-only tail (Maven 3.9's chained local repository): Hourglass comes
 * from the first, plugins from the second, and nothing is written to {@code ~/.m2}.
 */
class ReadmeQuickStartTest {
  @RegisterExtension static RedisExtension redis = RedisExtension.standalone();

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final String DEPENDENCY_PLUGIN =
      "org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath";

  @Test
  void theQuickStartBuildsAgainstTheInstalledArtifactsAndRunsAsPrinted() throws Exception {
    ReadmeBlocks section = ReadmeBlocks.section(ROOT.resolve("README.md"), "## Quick start (Java)");
    assertThat(section.text()).contains("./mvnw -q install -DskipTests");
    String source = section.block("java");
    Matcher className = Pattern.compile("public class (\\w+)").matcher(source);
    assertThat(className.find()).as("a public class in the java block").isTrue();

    Path project = Path.of(System.getProperty("readme.buildDir"), "readme-quick-start");
    Path classpathFile = project.resolve("classpath.txt");
    deleteRecursively(project);
    Files.createDirectories(project.resolve("src/main/java"));
    Files.writeString(project.resolve("pom.xml"), pom(section.block("xml")));
    Files.writeString(project.resolve("src/main/java/" + className.group(1) + ".java"), source);

    Path repo = Path.of(System.getProperty("readme.repo")).toAbsolutePath();
    run(
        project,
        "build",
        List.of(
            ROOT.resolve("mvnw").toString(),
            "-B",
            "-o",
            "-Dmaven.repo.local=" + repo,
            "-Dmaven.repo.local.tail=" + System.getProperty("readme.repoTail"),
            "compile",
            DEPENDENCY_PLUGIN,
            "-Dmdep.outputFile=" + classpathFile),
        null);

    String classpath = Files.readString(classpathFile).trim();
    assertThat(classpath.split(File.pathSeparator))
        .as("hourglass-core comes from this build's installation, not from ~/.m2")
        .anyMatch(
            entry ->
                entry.startsWith(repo.resolve("dev/hourglass/hourglass-core").toString())
                    && entry.endsWith(".jar"));

    String output =
        run(
            project,
            "run",
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                project.resolve("target/classes") + File.pathSeparator + classpath,
                className.group(1)),
            redis.uri());
    assertThat(output).contains("closing order {\"order\":42}");
  }

  /** A minimal project of a user's: Java 17, UTF-8, and the README's dependency block. */
  private static String pom(String dependency) {
    return """
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>quick-start</artifactId>
          <version>1.0</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
          <dependencies>
        %s  </dependencies>
        </project>
        """
        .formatted(dependency);
  }

  /** Runs a command in {@code dir}; returns its output (also in {@code name.log}). */
  private static String run(Path dir, String name, List<String> command, String redisUrl)
      throws IOException, InterruptedException {
    Path log = dir.resolve(name + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(new ArrayList<>(command))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    if (redisUrl != null) {
      builder.environment().put("REDIS_URL", redisUrl);
    }
    Process process = builder.start();
    // A guard against a hang, not a performance bound: the build takes seconds.
    boolean finished = process.waitFor(10, TimeUnit.MINUTES);
    if (!finished) {
      process.destroyForcibly().waitFor();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(finished).as("%s finished:%n%s", command, output).isTrue();
    assertThat(process.exitValue()).as("exit code of %s:%n%s", command, output).isZero();
    return output;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
