package dev.hourglass.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/MIGRATING-FROM-REDISSON.md cannot drift from code that runs: each of its java blocks is in
 * the tests of this package or in the drain class (whitespace aside), where it runs against
 * Redisson and Hourglass on a real Redis; the drain class is shown whole.
 */
class MigrationGuideTest {
  private static final Path GUIDE = Path.of("..", "docs", "MIGRATING-FROM-REDISSON.md");
  private static final Path TESTS = Path.of("src", "test", "java", "dev", "hourglass", "migrate");
  private static final Path DRAIN =
      Path.of(
          "src", "main", "java", "dev", "hourglass", "migrate", "RedissonDelayedQueueDrain.java");
  private static final Pattern JAVA_BLOCK = Pattern.compile("(?ms)^```java\\n(.*?)^```$");

  @Test
  void everyJavaBlockIsCodeThatRuns() throws IOException {
    List<String> blocks = javaBlocks(Files.readString(GUIDE));
    assertThat(blocks).as("java blocks in the guide").hasSizeGreaterThanOrEqualTo(20);
    String code = normalised(sources());
    for (String block : blocks) {
      assertThat(code)
          .as("the tests or the drain class hold this block of the guide:%n%s", block)
          .contains(normalised(block));
    }
  }

  @Test
  void theDrainClassIsShownWhole() throws IOException {
    String drain = normalised(Files.readString(DRAIN));
    assertThat(javaBlocks(Files.readString(GUIDE)).stream().map(MigrationGuideTest::normalised))
        .contains(drain);
  }

  @Test
  void aChangedBlockIsCaught() throws IOException {
    String code = normalised(sources());
    assertThat(code).contains(normalised("delayed.offer(\"order-42\", 30, TimeUnit.MINUTES);"));
    assertThat(code)
        .doesNotContain(normalised("delayed.offer(\"order-42\", 31, TimeUnit.MINUTES);"));
  }

  static List<String> javaBlocks(String markdown) {
    List<String> blocks = new ArrayList<>();
    Matcher m = JAVA_BLOCK.matcher(markdown);
    while (m.find()) {
      blocks.add(m.group(1));
    }
    return blocks;
  }

  /** Without whitespace, which the formatter moves (line breaks, indentation). */
  static String normalised(String code) {
    return code.replaceAll("\\s+", "");
  }

  private static String sources() throws IOException {
    StringBuilder all = new StringBuilder(Files.readString(DRAIN));
    try (Stream<Path> files = Files.list(TESTS)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
        if (!f.getFileName().toString().equals("MigrationGuideTest.java")) {
          all.append('\n').append(Files.readString(f));
        }
      }
    }
    return all.toString();
  }
}
